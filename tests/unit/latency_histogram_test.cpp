// LatencyHistogram: quantiles within a bin's width (~3 %) of the exact
// ones, exact mean and maximum.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "model/recording/latency_histogram.h"

namespace fabric {
namespace {

TEST(LatencyHistogram, QuantilesWithinABinOfTheExactOnes) {
  std::mt19937_64 rng(5);
  std::exponential_distribution<double> exp(1.0 / 8e6);  // mean 8 us in ps
  std::vector<Picos> all;
  LatencyHistogram h, half1, half2;
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    const Picos x = 1000 + static_cast<Picos>(exp(rng));
    all.push_back(x);
    h.add(x);
    (i % 2 ? half1 : half2).add(x);
    sum += x;
  }
  std::sort(all.begin(), all.end());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    const double exact = static_cast<double>(all[static_cast<size_t>(q * all.size()) - 1]);
    EXPECT_NEAR(h.quantile(q) / exact, 1.0, 0.035) << q;
  }
  EXPECT_EQ(h.max(), all.back());
  EXPECT_EQ(h.quantile(1.0), all.back());
  EXPECT_DOUBLE_EQ(h.mean(), sum / all.size());
  half1.merge(half2);
  EXPECT_EQ(half1.count(), h.count());
  EXPECT_EQ(half1.quantile(0.99), h.quantile(0.99));
}

TEST(LatencyHistogram, EmptyIsZero) {
  LatencyHistogram h;
  EXPECT_EQ(h.quantile(0.99), 0);
  EXPECT_EQ(h.mean(), 0);
}

}  // namespace
}  // namespace fabric
