// ErrorInjector: packet error probability from a bit error rate, its
// statistics, and scripted errors.
#include <gtest/gtest.h>

#include <cmath>

#include "model/link/error_injector.h"

namespace fabric {
namespace {

TEST(ErrorInjector, PacketProbabilityFromTheBitErrorRate) {
  ErrorInjector::Params p;
  p.bit_error_rate = 1e-7;
  const ErrorInjector e(p, 1);
  // 256 B = 2048 bits: 1 - (1 - 1e-7)^2048 = 2.0478e-4 (to 4 digits: 2048e-7 less the square term).
  EXPECT_NEAR(e.packet_probability(256), 2.04779e-4, 1e-9);
  EXPECT_NEAR(e.packet_probability(10), 8.0e-6, 1e-9);
  ErrorInjector::Params none;
  EXPECT_EQ(ErrorInjector(none, 1).packet_probability(256), 0);
}

TEST(ErrorInjector, DrawsMatchTheProbability) {
  ErrorInjector::Params p;
  p.packet_error_probability = 0.01;
  ErrorInjector e(p, 7);
  const int trials = 200000;
  int bad = 0;
  for (int i = 0; i < trials; ++i) bad += e.corrupt(i, 256, false);
  // Binomial: standard deviation sqrt(n p (1-p)) = 44.5 of 2000; 5 sigma.
  EXPECT_NEAR(bad, 2000, 225);
  EXPECT_EQ(e.injected(), uint64_t(bad));
}

TEST(ErrorInjector, ScriptedErrorsHitTheFirstTransmissionOnly) {
  ErrorInjector::Params p;
  p.scripted = {0, 5, 6};
  ErrorInjector e(p, 1);
  for (uint64_t seq = 0; seq < 10; ++seq) EXPECT_EQ(e.corrupt(seq, 256, false), p.scripted.count(seq) > 0) << seq;
  EXPECT_FALSE(e.corrupt(5, 256, true)) << "the replay gets through";
}

}  // namespace
}  // namespace fabric
