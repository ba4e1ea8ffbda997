// MessageSizeDistribution: E12's bursts (48 B plus an exponential part of
// mean 7 KB, capped at 85 KB) have the capped exponential's mean and never
// pass the cap; MessageFrames cuts a message into back-to-back frames.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/config_error_of.h"
#include "traffic/message_size.h"

namespace fabric::traffic {
namespace {

using fabric::testing::config_error_of;

TEST(MessageSize, CappedExponentialMeanAndCapWithinStatisticalBounds) {
  const MessageSizeDistribution d = MessageSizeDistribution::parse("flow.w.message_size", "exp:48:7KB:85KB");
  std::mt19937_64 rng(12);
  const int n = 200000;
  double sum = 0, sum_sq = 0;
  uint64_t largest = 0, smallest = ~uint64_t{0};
  for (int i = 0; i < n; ++i) {
    const uint64_t s = d.draw(rng);
    sum += static_cast<double>(s);
    sum_sq += static_cast<double>(s) * static_cast<double>(s);
    largest = std::max(largest, s);
    smallest = std::min(smallest, s);
  }
  const double mean = sum / n;
  const double sd = std::sqrt(sum_sq / n - mean * mean);
  // 48 + 7168 (1 - e^(-(87040 - 48) / 7168)): the cap takes almost nothing off.
  EXPECT_NEAR(d.mean(), 48 + 7168 * (1 - std::exp(-(87040.0 - 48) / 7168)), 1e-9);
  EXPECT_NEAR(mean, d.mean(), 5 * sd / std::sqrt(n)) << "five standard errors";
  EXPECT_NEAR(sd, 7168, 7168 * 0.02) << "an exponential's spread";
  EXPECT_LE(largest, 87040u);
  EXPECT_GE(smallest, 48u);
}

TEST(MessageSize, ACapBelowTheMeanHoldsEveryMessage) {
  const MessageSizeDistribution d = MessageSizeDistribution::parse("k", "exp:100:10KB:2KB");
  std::mt19937_64 rng(3);
  int at_cap = 0;
  for (int i = 0; i < 10000; ++i) {
    const uint64_t s = d.draw(rng);
    ASSERT_LE(s, 2048u);
    at_cap += s == 2048;
  }
  EXPECT_GT(at_cap, 8000) << "most of them";
  EXPECT_EQ(MessageSizeDistribution::parse("k", "9000").draw(rng), 9000u);
  EXPECT_EQ(MessageSizeDistribution::parse("k", "exp:48:7168:87040").text(), "exp:48:7168:87040");
}

TEST(MessageSize, BadTextNamesTheKey) {
  for (const char* bad : {"", "exp:48:7KB", "exp:90KB:7KB:85KB", "exp:0:7KB:85KB", "exp:48:x:85KB", "-5", "2GB"}) {
    const config::ConfigError e = config_error_of([&] { MessageSizeDistribution::parse("flow.w.message_size", bad); });
    EXPECT_EQ(e.key, "flow.w.message_size") << bad;
  }
}

TEST(MessageFrames, BackToBackFramesOfAtMost1500BOfPayload) {
  MessageFrames frames(4000, 1500, 18, 64);
  std::vector<uint32_t> sizes;
  while (!frames.done()) sizes.push_back(frames.next());
  EXPECT_EQ(sizes, (std::vector<uint32_t>{1518, 1518, 1018}));
  MessageFrames small(20, 1500, 18, 64);
  EXPECT_EQ(small.next(), 64u) << "padded to the minimum frame";
  EXPECT_TRUE(small.done());
  EXPECT_TRUE(MessageFrames(0, 1500, 18, 64).done());
}

}  // namespace
}  // namespace fabric::traffic
