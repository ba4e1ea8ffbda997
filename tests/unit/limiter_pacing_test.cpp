// A rate limiter's spacing (mechanisms.md §7): counted from when a frame
// could have left, so a frame the link kept waiting does not slow the flow;
// at most one frame's credit, so an idle flow does not burst.
#include <gtest/gtest.h>

#include "model/qcn/limiter_pacing.h"

namespace fabric {
namespace {

constexpr uint32_t kBytes = 1522;             // 1542 B on the wire
constexpr Picos kAt5G = 1542 * 8 * 1000 / 5;  // 2,467,200 ps a frame at 5 Gb/s

TEST(LimiterPacing, OnTimeFramesAreSpacedByTheirWireTimeAtTheRate) {
  EXPECT_EQ(limiter_next_eligible(1'000'000, 1'000'000, kBytes, 5.0), 1'000'000 + kAt5G);
}

TEST(LimiterPacing, AFrameSentLateDoesNotPushTheNextOneBack) {
  // Eligible at 1 us, sent at 2 us (the link was busy): the next may leave
  // one interval after 1 us, not after 2 us.
  EXPECT_EQ(limiter_next_eligible(1'000'000, 2'000'000, kBytes, 5.0), 1'000'000 + kAt5G);
}

TEST(LimiterPacing, AKeptLinkKeepsTheRateOverManyFrames) {
  // Every frame waits 1.23 us for another flow's frame: the flow still
  // sends at 5 Gb/s on average.
  Picos eligible = 0, sent = 0;
  for (int k = 0; k < 1000; ++k) {
    sent = eligible + 1'233'600;
    eligible = limiter_next_eligible(eligible, sent, kBytes, 5.0);
  }
  EXPECT_NEAR(static_cast<double>(sent) / 1000, static_cast<double>(kAt5G), kAt5G * 0.01);
}

TEST(LimiterPacing, AnIdleFlowGetsAtMostOneFramesCredit) {
  // Eligible long ago (idle): the next may leave at once, the one after a
  // full interval later.
  const Picos next = limiter_next_eligible(0, 50'000'000, kBytes, 5.0);
  EXPECT_EQ(next, 50'000'000);
  EXPECT_EQ(limiter_next_eligible(next, next, kBytes, 5.0), 50'000'000 + kAt5G);
}

}  // namespace
}  // namespace fabric
