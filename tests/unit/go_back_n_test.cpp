// Go-back-N link retry on scripted losses: the first packet, the last, a
// burst, a lost NAK, a lost ACK. The receiver must hand on every packet
// exactly once and in order.
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "model/link/go_back_n.h"

namespace fabric {
namespace {

// A lock-step model of one link: each round the sender puts at most one
// packet on the wire, which arrives (maybe corrupted) the next round; the
// receiver's NAK and ACK come back a round later (maybe lost). After
// `timeout` silent rounds with packets outstanding the sender replays.
struct Channel {
  std::function<bool(LinkSeq seq, int attempt)> corrupt = [](LinkSeq, int) { return false; };
  std::function<bool(int nak_index)> lose_nak = [](int) { return false; };
  std::function<bool(int ack_index)> lose_ack = [](int) { return false; };
  int timeout = 20;
  size_t buffer = 8;
  uint32_t ack_every = 4;

  std::vector<uint64_t> run(uint64_t packets, uint64_t* replays = nullptr) {
    GoBackNSender tx(buffer);
    GoBackNReceiver rx(ack_every);
    std::vector<uint64_t> delivered;
    std::map<LinkSeq, int> attempts;
    uint64_t added = 0;
    int naks = 0, acks = 0, silent = 0;
    for (int round = 0; round < 100000 && delivered.size() < packets; ++round) {
      while (added < packets && tx.can_send()) tx.add(1000 + added++);
      bool heard = false;
      if (const auto out = tx.next()) {
        const bool bad = corrupt(out->seq, attempts[out->seq]++);
        if (rx.on_packet(out->seq, !bad) == GoBackNReceiver::Verdict::accept) delivered.push_back(out->handle);
      }
      if (const auto nak = rx.take_nak()) {
        if (!lose_nak(naks++)) {
          tx.on_nak(*nak);
          heard = true;
        }
      }
      if (const auto ack = rx.take_ack(round % 8 == 7)) {
        if (!lose_ack(acks++)) {
          tx.on_ack(*ack);
          heard = true;
        }
      }
      silent = heard || tx.idle() ? 0 : silent + 1;
      if (silent >= timeout) {
        tx.on_timeout();
        silent = 0;
      }
    }
    if (replays) *replays = tx.replays();
    return delivered;
  }
};

void expect_in_order_exactly_once(const std::vector<uint64_t>& delivered, uint64_t packets) {
  ASSERT_EQ(delivered.size(), packets) << "a gap or a duplicate";
  for (uint64_t i = 0; i < packets; ++i) ASSERT_EQ(delivered[i], 1000 + i) << "position " << i;
}

TEST(GoBackN, NoLossNoReplay) {
  Channel c;
  uint64_t replays = 1;
  expect_in_order_exactly_once(c.run(100, &replays), 100);
  EXPECT_EQ(replays, 0u);
}

TEST(GoBackN, TheFirstPacketLost) {
  Channel c;
  c.corrupt = [](LinkSeq seq, int attempt) { return seq == 0 && attempt == 0; };
  uint64_t replays = 0;
  expect_in_order_exactly_once(c.run(50, &replays), 50);
  EXPECT_GT(replays, 0u);
}

TEST(GoBackN, TheLastPacketLost) {
  Channel c;
  c.corrupt = [](LinkSeq seq, int attempt) { return seq == 49 && attempt == 0; };
  expect_in_order_exactly_once(c.run(50), 50);  // no later packet to reveal the gap: the timeout replays
}

TEST(GoBackN, ABurstLost) {
  Channel c;
  c.corrupt = [](LinkSeq seq, int attempt) { return seq >= 10 && seq < 17 && attempt == 0; };
  uint64_t replays = 0;
  expect_in_order_exactly_once(c.run(60, &replays), 60);
  EXPECT_GE(replays, 7u) << "go back to 10 and send 10..16 again";
}

TEST(GoBackN, ALostNakIsRecoveredByTheTimeout) {
  Channel c;
  c.corrupt = [](LinkSeq seq, int attempt) { return seq == 20 && attempt == 0; };
  c.lose_nak = [](int nak) { return nak == 0; };
  expect_in_order_exactly_once(c.run(60), 60);
}

TEST(GoBackN, ALostAckIsCoveredByTheNextOne) {
  Channel c;
  c.lose_ack = [](int ack) { return ack % 2 == 0; };  // every other ACK lost
  uint64_t replays = 0;
  expect_in_order_exactly_once(c.run(80, &replays), 80);
  EXPECT_EQ(replays, 0u) << "cumulative ACKs: a lost one costs nothing when the next arrives in time";
}

TEST(GoBackN, AllAcksLostForAWhileReplaysAndTheReceiverDropsDuplicates) {
  Channel c;
  c.lose_ack = [](int ack) { return ack < 6; };
  c.timeout = 5;
  uint64_t replays = 0;
  expect_in_order_exactly_once(c.run(40, &replays), 40);
  EXPECT_GT(replays, 0u);
}

TEST(GoBackN, RandomErrorsOnEveryKindOfMessage) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    Channel c;
    c.corrupt = [&](LinkSeq, int) { return rng() % 10 == 0; };
    c.lose_nak = [&](int) { return rng() % 5 == 0; };
    c.lose_ack = [&](int) { return rng() % 5 == 0; };
    expect_in_order_exactly_once(c.run(500), 500);
  }
}

TEST(GoBackN, RetryBufferOfOnePacketAtLeast) { EXPECT_THROW(GoBackNSender(0), std::invalid_argument); }

// More outstanding than the inline ring holds: the ring grows to the heap
// with every entry in place, across the wrap of the numbers.
TEST(GoBackN, ManyOutstandingKeepTheirHandlesInOrder) {
  GoBackNSender tx(1000);
  std::vector<uint64_t> released;
  const auto keep = [&](uint64_t h) { released.push_back(h); };
  for (uint64_t i = 0; i < 20; ++i) tx.add_sent(100 + i, 1);
  tx.on_ack(9, keep);  // numbers 0 .. 9
  for (uint64_t i = 20; i < 300; ++i) tx.add_sent(100 + i, 1);
  EXPECT_EQ(tx.buffered(), 290u);
  EXPECT_EQ(tx.held(), 290u);
  EXPECT_FALSE(tx.has_next());
  tx.on_nak(150, keep);  // replays from 150, in order, with their handles
  for (uint64_t seq = 150; seq < 300; ++seq) {
    const auto out = tx.next();
    ASSERT_TRUE(out);
    EXPECT_EQ(out->seq, seq);
    EXPECT_EQ(out->handle, 100 + seq);
    EXPECT_TRUE(out->replay);
  }
  tx.on_ack(299, keep);
  ASSERT_EQ(released.size(), 300u);
  for (uint64_t i = 0; i < 300; ++i) EXPECT_EQ(released[i], 100 + i) << i;
  EXPECT_TRUE(tx.idle());
  EXPECT_EQ(tx.held(), 0u);
}

}  // namespace
}  // namespace fabric
