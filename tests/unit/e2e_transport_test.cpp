// E2eTransport, the CNAs' end-to-end transport: numbering per (destination,
// priority), cumulative and coalesced ACKs, one NAK per gap, go-back-N on a
// NAK or a timeout, duplicates dropped; and over a lossy channel in both
// directions, every frame delivered exactly once and in order.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

#include "model/cna/e2e_transport.h"

namespace fabric {
namespace {

E2eTransportParams params(uint32_t ack_every = 4, Picos ack_delay = 100, Picos timeout = 10'000) {
  E2eTransportParams p;
  p.enabled = true;
  p.priorities = 0xFF;
  p.nak_retry = 20'000'000;  // 20 us
  p.ack_every = ack_every;
  p.ack_delay = ack_delay;
  p.timeout = timeout;
  return p;
}

QueuedFrame frame(uint64_t id) { return QueuedFrame{FrameId(id), FlowId(1), 0, 1000, 0}; }

TEST(E2eTransport, NumbersPerDestinationAndPriorityAndAcksAreCumulative) {
  E2eTransport t(params());
  EXPECT_EQ(t.on_send(PortId(5), 3, frame(0), 0), 0u);
  EXPECT_EQ(t.on_send(PortId(5), 3, frame(1), 0), 1u);
  EXPECT_EQ(t.on_send(PortId(6), 3, frame(2), 0), 0u);
  EXPECT_EQ(t.on_send(PortId(5), 1, frame(3), 0), 0u);
  EXPECT_EQ(t.on_send(PortId(5), 3, frame(4), 0), 2u);
  EXPECT_EQ(t.unacknowledged(), 5u);
  t.on_ack(PortId(5), 3, 2);  // 0 and 1 of (5, 3)
  EXPECT_EQ(t.unacknowledged(), 3u);
  t.on_ack(PortId(5), 3, 1);  // older: nothing more
  EXPECT_EQ(t.unacknowledged(), 3u);
  t.on_ack(PortId(6), 1, 5);  // a pair that sent nothing
  EXPECT_EQ(t.unacknowledged(), 3u);
}

TEST(E2eTransport, ReceiverAcksEveryNFramesOrAfterTheDelay) {
  E2eTransport t(params(4, 100));
  for (uint32_t s = 0; s < 4; ++s) EXPECT_EQ(t.on_data(PortId(2), 0, s, 10).verdict, E2eTransport::Verdict::deliver);
  auto r = t.take_reply(0);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, TransportKind::ack);
  EXPECT_EQ(r->to, PortId(2));
  EXPECT_EQ(r->next, 4u);
  EXPECT_FALSE(t.take_reply(0));
  EXPECT_TRUE(t.on_data(PortId(2), 0, 4, 200).wake);  // starts the delay
  t.release_due_acks(299);
  EXPECT_FALSE(t.has_reply(0));
  EXPECT_EQ(t.next_due(), 300);
  t.release_due_acks(300);
  r = t.take_reply(0);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->next, 5u);
  EXPECT_EQ(t.acks_sent(), 2u);
}

TEST(E2eTransport, AGapIsNakedOnceAndWhatFollowsItIsDropped) {
  E2eTransport t(params(100));
  using V = E2eTransport::Verdict;
  EXPECT_EQ(t.on_data(PortId(1), 2, 0, 0).verdict, V::deliver);
  EXPECT_EQ(t.on_data(PortId(1), 2, 2, 0).verdict, V::out_of_order);  // 1 was lost
  EXPECT_EQ(t.on_data(PortId(1), 2, 3, 0).verdict, V::out_of_order);
  auto r = t.take_reply(2);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, TransportKind::nak);
  EXPECT_EQ(r->next, 1u);
  EXPECT_FALSE(t.take_reply(2));  // one NAK for the gap
  EXPECT_EQ(t.on_data(PortId(1), 2, 1, 0).verdict, V::deliver);
  EXPECT_EQ(t.on_data(PortId(1), 2, 2, 0).verdict, V::deliver);
  EXPECT_EQ(t.on_data(PortId(1), 2, 1, 0).verdict, V::duplicate);
  EXPECT_EQ(t.duplicates(), 1u);
  EXPECT_EQ(t.out_of_order(), 2u);
  EXPECT_EQ(t.naks_sent(), 1u);
}

TEST(E2eTransport, NakSendsEveryUnacknowledgedFrameAgainInOrder) {
  E2eTransport t(params());
  for (uint64_t i = 0; i < 5; ++i) t.on_send(PortId(9), 4, frame(i), 0);
  EXPECT_TRUE(t.on_nak(PortId(9), 4, 1));  // 0 arrived, 1 did not
  EXPECT_EQ(t.unacknowledged(), 4u);
  EXPECT_FALSE(t.on_nak(PortId(9), 4, 1));  // already queued: nothing more
  EXPECT_FALSE(t.has_resend(3));
  for (uint32_t s = 1; s < 5; ++s) {
    auto r = t.take_resend(4, 100);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->seq, s);
    EXPECT_EQ(r->dst, PortId(9));
    EXPECT_EQ(raw(r->frame.id), s);
  }
  EXPECT_FALSE(t.take_resend(4, 100));
  EXPECT_EQ(t.retransmitted(), 4u);
  EXPECT_EQ(t.go_back_episodes(), 1u);
  // An ACK while resends wait makes them moot.
  EXPECT_TRUE(t.on_nak(PortId(9), 4, 3));
  t.on_ack(PortId(9), 4, 5);
  t.drop_acknowledged_resends();
  EXPECT_FALSE(t.has_resend(4));
  EXPECT_EQ(t.unacknowledged(), 0u);
}

TEST(E2eTransport, TimeoutOfTheOldestFrameSendsThePairAgain) {
  E2eTransport t(params(4, 100, 1000));
  t.on_send(PortId(3), 0, frame(0), 0);
  t.on_send(PortId(3), 0, frame(1), 500);
  EXPECT_EQ(t.next_due(), 1000);
  EXPECT_FALSE(t.expire(999));
  EXPECT_TRUE(t.expire(1000));
  EXPECT_EQ(t.timeouts(), 1u);
  EXPECT_EQ(t.take_resend(0, 1200)->seq, 0u);
  EXPECT_EQ(t.take_resend(0, 1300)->seq, 1u);
  t.on_ack(PortId(3), 0, 1);  // 0 arrived this time
  // Frame 1, sent again at 1300, times out at 2300, not before.
  EXPECT_FALSE(t.expire(2299));
  EXPECT_TRUE(t.expire(2300));
  EXPECT_EQ(t.take_resend(0, 2300)->seq, 1u);
  t.on_ack(PortId(3), 0, 2);
  EXPECT_FALSE(t.expire(10'000));
  EXPECT_EQ(t.unacknowledged(), 0u);
  EXPECT_EQ(t.timeouts(), 2u);
}

// Two transports joined by a channel that loses data and replies at random,
// with a fixed delay each way: everything arrives exactly once and in order.
TEST(E2eTransport, LossyChannelDeliversEveryFrameOnceInOrder) {
  for (const double loss : {0.0, 0.05, 0.3}) {
    E2eTransport a(params(4, 200, 5000)), b(params(4, 200, 5000));
    std::mt19937_64 rng(7);
    std::bernoulli_distribution lost(loss);
    struct InFlight {
      Picos at;
      TransportKind kind;
      uint32_t seq;
      uint64_t id;
    };
    std::deque<InFlight> to_b, to_a;
    std::vector<uint64_t> delivered;
    const uint64_t frames = 500;
    uint64_t next_frame = 0;
    const Picos delay = 1000;
    for (Picos now = 0; now < 2'000'000 && (delivered.size() < frames || a.unacknowledged() > 0); now += 100) {
      a.expire(now);
      a.drop_acknowledged_resends();
      b.release_due_acks(now);
      // One frame per step from a: a resend first, else a new frame.
      if (auto r = a.take_resend(0, now)) {
        if (!lost(rng)) to_b.push_back({now + delay, TransportKind::data, r->seq, raw(r->frame.id)});
      } else if (next_frame < frames) {
        const uint32_t seq = a.on_send(PortId(1), 0, frame(next_frame), now);
        if (!lost(rng)) to_b.push_back({now + delay, TransportKind::data, seq, next_frame});
        ++next_frame;
      }
      while (auto r = b.take_reply(0))
        if (!lost(rng)) to_a.push_back({now + delay, r->kind, r->next, 0});
      while (!to_b.empty() && to_b.front().at <= now) {
        const InFlight m = to_b.front();
        to_b.pop_front();
        if (b.on_data(PortId(0), 0, m.seq, now).verdict == E2eTransport::Verdict::deliver) delivered.push_back(m.id);
      }
      while (!to_a.empty() && to_a.front().at <= now) {
        const InFlight m = to_a.front();
        to_a.pop_front();
        if (m.kind == TransportKind::ack)
          a.on_ack(PortId(1), 0, m.seq);
        else
          a.on_nak(PortId(1), 0, m.seq);
      }
    }
    ASSERT_EQ(delivered.size(), frames) << "loss " << loss;
    for (uint64_t i = 0; i < frames; ++i) ASSERT_EQ(delivered[i], i) << "loss " << loss;
    EXPECT_EQ(a.unacknowledged(), 0u) << "loss " << loss;
    if (loss == 0)
      EXPECT_EQ(a.retransmitted(), 0u);
    else
      EXPECT_GT(a.retransmitted(), 0u);
  }
}

}  // namespace
}  // namespace fabric
