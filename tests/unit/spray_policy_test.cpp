// Packet spraying over a leaf's 32 uplinks.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "model/leaf/spray_policy.h"

namespace fabric {
namespace {

constexpr int kUplinks = 32;
constexpr int kCap = 4;

TEST(SprayPolicy, RoundRobinCyclesEvenlyOverAllUplinks) {
  RoundRobinSpray rr;
  std::vector<int> depths(kUplinks, 0);
  std::vector<int> counts(kUplinks, 0);
  for (int k = 1; k <= 10; ++k) {
    for (int i = 0; i < kUplinks; ++i) {
      const int c = rr.choose(depths, kCap);
      ASSERT_GE(c, 0);
      ASSERT_LT(c, kUplinks);
      ++counts[c];
    }
    for (int i = 0; i < kUplinks; ++i) ASSERT_EQ(counts[i], k) << "uplink " << i << " after " << 32 * k;
  }
}

TEST(SprayPolicy, RoundRobinVisitsUplinksInOrder) {
  RoundRobinSpray rr;
  std::vector<int> depths(kUplinks, 1);
  for (int i = 0; i < 2 * kUplinks; ++i) EXPECT_EQ(rr.choose(depths, kCap), i % kUplinks);
}

TEST(SprayPolicy, RoundRobinSkipsFullQueues) {
  RoundRobinSpray rr;
  std::vector<int> depths(kUplinks, 0);
  for (int i = 0; i < kUplinks; i += 2) depths[i] = kCap;  // even uplinks full
  std::vector<int> counts(kUplinks, 0);
  for (int n = 0; n < 16 * 5; ++n) {
    const int c = rr.choose(depths, kCap);
    ASSERT_GE(c, 0);
    ASSERT_EQ(c % 2, 1) << "chose a full uplink";
    ++counts[c];
  }
  for (int i = 1; i < kUplinks; i += 2) EXPECT_EQ(counts[i], 5);
  // Over capacity counts as full too.
  std::vector<int> over(kUplinks, kCap + 3);
  over[17] = kCap - 1;
  for (int n = 0; n < 5; ++n) EXPECT_EQ(rr.choose(over, kCap), 17);
}

TEST(SprayPolicy, RoundRobinContinuesAfterTheLastUsedUplink) {
  RoundRobinSpray rr;
  std::vector<int> depths(kUplinks, 0);
  EXPECT_EQ(rr.choose(depths, kCap), 0);
  EXPECT_EQ(rr.choose(depths, kCap), 1);
  depths[2] = depths[3] = kCap;
  EXPECT_EQ(rr.choose(depths, kCap), 4);
  depths[2] = depths[3] = 0;
  EXPECT_EQ(rr.choose(depths, kCap), 5);  // does not go back to 2
}

TEST(SprayPolicy, AllFullReturnsMinusOne) {
  std::vector<int> full(kUplinks, kCap);
  RoundRobinSpray rr;
  LeastLoadedSpray ll;
  EXPECT_EQ(rr.choose(full, kCap), -1);
  EXPECT_EQ(ll.choose(full, kCap), -1);
  full[9] = kCap - 1;
  EXPECT_EQ(rr.choose(full, kCap), 9);
  EXPECT_EQ(ll.choose(full, kCap), 9);
  full[9] = kCap;
  EXPECT_EQ(rr.choose(full, kCap), -1);
  EXPECT_EQ(ll.choose(full, kCap), -1);
}

TEST(SprayPolicy, LeastLoadedPicksTheShortestQueue) {
  LeastLoadedSpray ll;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> d(0, kCap);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<int> depths(kUplinks);
    for (int& x : depths) x = d(rng);
    const int c = ll.choose(depths, kCap);
    const int shortest = *std::min_element(depths.begin(), depths.end());
    if (shortest >= kCap) {
      EXPECT_EQ(c, -1);
    } else {
      ASSERT_GE(c, 0);
      EXPECT_EQ(depths[c], shortest) << "trial " << trial;
    }
  }
}

TEST(SprayPolicy, LeastLoadedSpreadsOverEqualQueues) {
  LeastLoadedSpray ll;
  std::vector<int> depths(kUplinks, 2);
  std::vector<int> counts(kUplinks, 0);
  for (int n = 0; n < kUplinks * 3; ++n) ++counts[ll.choose(depths, kCap)];
  for (int i = 0; i < kUplinks; ++i) EXPECT_EQ(counts[i], 3) << "uplink " << i;
}

TEST(SprayPolicy, LeastLoadedFillsQueuesEvenly) {
  // Packets are queued where chosen: depths stay within one of each other.
  LeastLoadedSpray ll;
  std::vector<int> depths(kUplinks, 0);
  depths[5] = 3;
  for (int n = 0; n < 3 * kUplinks - 3; ++n) {
    const int c = ll.choose(depths, kCap);
    ASSERT_GE(c, 0);
    ++depths[c];
  }
  for (int i = 0; i < kUplinks; ++i) EXPECT_EQ(depths[i], 3) << "uplink " << i;
}

TEST(SprayPolicy, LeastLoadedTieGoesRoundRobin) {
  LeastLoadedSpray ll;
  std::vector<int> depths(kUplinks, 3);
  depths[4] = depths[20] = 1;
  EXPECT_EQ(ll.choose(depths, kCap), 4);
  EXPECT_EQ(ll.choose(depths, kCap), 20);
  EXPECT_EQ(ll.choose(depths, kCap), 4);
}

TEST(SprayPolicy, FactoryByName) {
  std::vector<int> depths(kUplinks, 0);
  auto rr = make_spray_policy("round_robin");
  auto ll = make_spray_policy("least_loaded");
  ASSERT_NE(dynamic_cast<RoundRobinSpray*>(rr.get()), nullptr);
  ASSERT_NE(dynamic_cast<LeastLoadedSpray*>(ll.get()), nullptr);
  EXPECT_EQ(rr->choose(depths, kCap), 0);
  EXPECT_THROW(make_spray_policy("hash"), std::invalid_argument);
}

}  // namespace
}  // namespace fabric
