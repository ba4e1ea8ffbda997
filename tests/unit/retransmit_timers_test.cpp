// RetransmitTimers: one timer per copy, due a fixed timeout after it was
// armed, expired oldest first; a copy still outstanding is armed again from
// the expiry. And the egress side: a packet that arrived before is known as
// a duplicate.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "model/leaf/reorder_buffer.h"
#include "model/leaf/retransmit_timers.h"

namespace fabric {
namespace {

// Every copy outstanding: nothing can be swept.
bool all_outstanding(int, uint32_t, uint32_t) { return true; }

TEST(RetransmitTimers, ExpireInArmingOrderAndRearmWhatIsOutstanding) {
  RetransmitTimers t(1000);
  EXPECT_TRUE(t.arm(0, 1, 7, 0, all_outstanding));  // the first timer: the owner must wake
  EXPECT_FALSE(t.arm(10, 1, 7, 1, all_outstanding));
  EXPECT_FALSE(t.arm(20, 2, 3, 0, all_outstanding));
  EXPECT_EQ(t.next_due(), 1000);
  std::vector<std::tuple<int, uint32_t, uint32_t>> seen;
  t.expire(999, [&](int p, uint32_t v, uint32_t s) {
    seen.emplace_back(p, v, s);
    return true;
  });
  EXPECT_TRUE(seen.empty());
  // At 1010: copies (1,7,0) and (1,7,1) are due; the first is still
  // outstanding (armed again from 1010), the second was acknowledged.
  t.expire(1010, [&](int p, uint32_t v, uint32_t s) {
    seen.emplace_back(p, v, s);
    return s == 0;
  });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], std::make_tuple(1, 7u, 0u));
  EXPECT_EQ(seen[1], std::make_tuple(1, 7u, 1u));
  EXPECT_EQ(t.next_due(), 1020);  // (2,3,0)
  seen.clear();
  t.expire(2010, [&](int p, uint32_t v, uint32_t s) {
    seen.emplace_back(p, v, s);
    return false;
  });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], std::make_tuple(2, 3u, 0u));
  EXPECT_EQ(seen[1], std::make_tuple(1, 7u, 0u));  // re-armed at 1010, due 2010
  EXPECT_TRUE(t.empty());
}

// Copies of one VOQ acknowledged up to (not including) `oldest`, as
// LeafIngress answers for its copies in flight.
struct AckedBelow {
  uint32_t oldest = 0;
  int asked = 0;
  bool operator()(int, uint32_t, uint32_t seq) {
    ++asked;
    return seq >= oldest;
  }
};

TEST(RetransmitTimers, TheTimersOfAcknowledgedCopiesAreSweptSoTheFifoStaysBounded) {
  RetransmitTimers t(1'000'000);
  AckedBelow acked;
  // A million copies, each acknowledged 3 copies after it started: at most 3
  // outstanding at a time, all of them within one timeout.
  size_t most = 0;
  for (uint32_t seq = 0; seq < 1'000'000; ++seq) {
    acked.oldest = seq >= 3 ? seq - 3 : 0;
    t.arm(seq, 0, 0, seq, acked);
    most = std::max(most, t.pending());
  }
  EXPECT_LE(most, RetransmitTimers::kFirstSweep);
  EXPECT_LT(acked.asked, 3'000'000);  // amortized: a few questions per timer
  // What is left due: the last copies, the outstanding ones among them, and
  // the timer each kept one follows.
  std::vector<uint32_t> due;
  t.expire(3'000'000, [&](int, uint32_t, uint32_t seq) {
    due.push_back(seq);
    return false;
  });
  ASSERT_GE(due.size(), 4u);
  EXPECT_EQ(due.back(), 999'999u);
  for (size_t i = 1; i < due.size(); ++i) EXPECT_LT(due[i - 1], due[i]);  // arming order
  EXPECT_TRUE(t.empty());
}

TEST(RetransmitTimers, ASweepKeepsEveryOutstandingTimerAndTheOneBeforeIt) {
  RetransmitTimers t(1000);
  // Copies 0..N-1 of VOQ 0; copy 500 is never acknowledged, the others are.
  const uint32_t n = static_cast<uint32_t>(RetransmitTimers::kFirstSweep) + 10;
  const auto outstanding = [](int, uint32_t, uint32_t seq) { return seq == 500; };
  for (uint32_t seq = 0; seq < n; ++seq) t.arm(seq, 0, 0, seq, outstanding);
  // Swept once, at kFirstSweep: kept 499, 500 and the last armed before the
  // sweep (the one before the timer being armed), then the 10 armed after.
  EXPECT_EQ(t.pending(), 3u + 10u);
  EXPECT_EQ(t.next_due(), 1000 + 499);  // the owner still wakes when 499 falls due, then for 500
  std::vector<uint32_t> due;
  t.expire(1000 + 500, [&](int, uint32_t, uint32_t seq) {
    due.push_back(seq);
    return outstanding(0, 0, seq);  // 500 armed again
  });
  EXPECT_EQ(due, (std::vector<uint32_t>{499, 500}));
  EXPECT_EQ(t.next_due(), 1000 + static_cast<Picos>(RetransmitTimers::kFirstSweep) - 1);
}

TEST(ReorderBuffer, KnowsThePacketsThatArrivedBefore) {
  ReorderBuffer rb;
  CopyMeta m;
  m.segments = 2;
  EXPECT_FALSE(rb.has_packet(0, 0));
  rb.on_packet(0, 1, m, 10);
  EXPECT_TRUE(rb.has_packet(0, 1));
  EXPECT_FALSE(rb.has_packet(0, 0));
  EXPECT_FALSE(rb.has_packet(1, 1));
  rb.on_packet(0, 0, m, 20);  // copy 0 complete
  EXPECT_TRUE(rb.has_packet(0, 0));
  EXPECT_TRUE(rb.has_packet(0, 1));
  EXPECT_FALSE(rb.has_packet(1, 0));
}

}  // namespace
}  // namespace fabric
