// The offered load a ring's permits follow: by the times hosts made their
// packets, summed over the sources, whatever the delay before they are seen.
#include <gtest/gtest.h>

#include "model/ring/offered_rate.h"

namespace fabric::ring {
namespace {

TEST(OfferedRate, OneSourceFollowsItsHostsGaps) {
  OfferedRate r(1000);
  EXPECT_DOUBLE_EQ(r.interval(), 1000);  // nothing seen: the initial guess
  for (Picos t = 0; t <= 100 * 400; t += 400) r.arrival(0, t);
  EXPECT_NEAR(r.interval(), 400, 1);
}

TEST(OfferedRate, SourcesRatesAddUp) {
  OfferedRate r(1);
  for (Picos t = 0; t <= 200 * 600; t += 600) {
    r.arrival(3, t);
    r.arrival(7, t + 17);
  }
  EXPECT_NEAR(r.interval(), 300, 1);  // two sources, each every 600 ps
}

TEST(OfferedRate, ASourceSeenLateStillCountsAtTheRateItsHostMadeThem) {
  // The same packets seen in bursts long after they were made (a congested
  // ring delays the vouchers): the rate is the hosts', not the bursts'.
  OfferedRate prompt(1), late(1);
  for (int i = 0; i < 200; ++i) prompt.arrival(1, i * 500);
  for (int burst = 0; burst < 20; ++burst)
    for (int i = burst * 10; i < burst * 10 + 10; ++i) late.arrival(1, i * 500);
  EXPECT_DOUBLE_EQ(late.interval(), prompt.interval());
}

TEST(OfferedRate, ASourceSeenOnceCountsAtTheOthersMeanRate) {
  OfferedRate r(1);
  for (Picos t = 0; t <= 100 * 800; t += 800) r.arrival(0, t);
  r.arrival(5, 123);
  EXPECT_NEAR(r.interval(), 400, 1);
}

}  // namespace
}  // namespace fabric::ring
