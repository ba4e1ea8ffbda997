// When frames are created: the random start phase, constant or Poisson
// spacing (ArrivalProcess), and how FlowSource applies them.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "traffic/arrival_process.h"
#include "traffic/flow_source.h"

namespace fabric::traffic {
namespace {

constexpr double kPeriod1522At100G = 123360;  // (1522 + 20) B * 8 at 100 Gb/s, in ps

FlowSpec flow(double rate, Arrival arrival, StartPhase phase) {
  FlowSpec f;
  f.id = FlowId(3);
  f.name = "s";
  f.src = PortId(0);
  f.dests = {PortId(1), PortId(2)};
  f.rate_gbps = rate;
  f.size = FrameSizeDistribution::parse("k", "uniform:64:1522");
  f.arrival = arrival;
  f.phase = phase;
  return f;
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / double(v.size());
}

double coefficient_of_variation(const std::vector<double>& v) {
  const double m = mean(v);
  double sq = 0;
  for (double x : v) sq += (x - m) * (x - m);
  return std::sqrt(sq / double(v.size())) / m;
}

// ---- ArrivalProcess ----

TEST(ArrivalProcess, PhaseIsWithinThePeriodAndSpreadOverIt) {
  ArrivalProcess a(Arrival::cbr, 11);
  std::vector<double> phases;
  for (int i = 0; i < 20000; ++i) {
    const Picos p = a.draw_phase(kPeriod1522At100G);
    ASSERT_GE(p, 0);
    ASSERT_LT(p, Picos(kPeriod1522At100G));
    phases.push_back(double(p));
  }
  EXPECT_NEAR(mean(phases), kPeriod1522At100G / 2, kPeriod1522At100G * 0.01);
  // a tiny period still gives a phase inside it
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.draw_phase(1.0), 0);
}

TEST(ArrivalProcess, CbrGapIsThePeriodAndDrawsNothing) {
  ArrivalProcess a(Arrival::cbr, 5), b(Arrival::cbr, 5);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.gap_ps(1234.5), 1234.5);
  EXPECT_EQ(a.draw_phase(1e6), b.draw_phase(1e6));  // the gaps took no random numbers
}

TEST(ArrivalProcess, PoissonGapsAreExponentialWithThePeriodAsMean) {
  ArrivalProcess a(Arrival::poisson, 21);
  std::vector<double> gaps;
  for (int i = 0; i < 200000; ++i) {
    gaps.push_back(a.gap_ps(kPeriod1522At100G));
    ASSERT_GE(gaps.back(), 0);
    ASSERT_TRUE(std::isfinite(gaps.back()));
  }
  EXPECT_NEAR(mean(gaps), kPeriod1522At100G, kPeriod1522At100G * 0.01);
  EXPECT_NEAR(coefficient_of_variation(gaps), 1.0, 0.02);  // exponential: standard deviation = mean
  // P(gap > mean) = 1/e
  int above = 0;
  for (double g : gaps) above += g > kPeriod1522At100G;
  EXPECT_NEAR(above / double(gaps.size()), std::exp(-1.0), 0.01);
}

TEST(ArrivalProcess, SameSeedSameDrawsOtherSeedOthers) {
  ArrivalProcess a(Arrival::poisson, 8), b(Arrival::poisson, 8), c(Arrival::poisson, 9);
  EXPECT_EQ(a.draw_phase(1e6), b.draw_phase(1e6));
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const double ga = a.gap_ps(1000);
    EXPECT_EQ(ga, b.gap_ps(1000));
    differs |= ga != c.gap_ps(1000);
  }
  EXPECT_TRUE(differs);
}

// ---- FlowSource ----

TEST(FlowSourcePhase, RandomPhaseFallsInTheFirstPeriodAndDiffersByFlow) {
  FlowSpec spec = flow(100, Arrival::cbr, StartPhase::random);
  spec.size = FrameSizeDistribution::parse("k", "1522");
  spec.start = 7'000'000;
  std::set<Picos> firsts;
  for (uint32_t id = 0; id < 50; ++id) {
    spec.id = FlowId(id);
    const FlowSource source(spec, flow_seed(1, spec.id));
    EXPECT_GE(source.next_time(), spec.start);
    EXPECT_LT(source.next_time(), spec.start + Picos(kPeriod1522At100G));
    EXPECT_EQ(source.next_time(), spec.start + source.phase());
    firsts.insert(source.next_time());
  }
  EXPECT_GT(firsts.size(), 45u) << "flows started phase-aligned";
  // deterministic: the same seed gives the same phase
  EXPECT_EQ(FlowSource(spec, 77).next_time(), FlowSource(spec, 77).next_time());
}

TEST(FlowSourcePhase, ZeroPhaseAndSingleFramesStartExactly) {
  FlowSpec spec = flow(100, Arrival::cbr, StartPhase::zero);
  spec.start = 30'000'000;
  EXPECT_EQ(FlowSource(spec, 1).next_time(), spec.start);
  // E11: frames = 1 keeps its exact start even with a random phase and Poisson spacing.
  spec.phase = StartPhase::random;
  spec.arrival = Arrival::poisson;
  spec.max_frames = 1;
  for (uint64_t seed = 1; seed <= 20; ++seed) EXPECT_EQ(FlowSource(spec, seed).next_time(), spec.start);
}

TEST(FlowSourcePhase, EveryOnIntervalStartsAtThePhase) {
  FlowSpec spec = flow(100, Arrival::cbr, StartPhase::random);
  spec.size = FrameSizeDistribution::parse("k", "1522");
  spec.schedule = {{1'000'000, 2'000'000}, {5'000'000, 6'000'000}};
  FlowSource source(spec, 4);
  const Picos phase = source.phase();
  ASSERT_GT(phase, 0);
  EXPECT_EQ(source.next_time(), 1'000'000 + phase);
  Picos created = 0;
  while ((created = source.pop(source.next_time()).created) < 2'000'000 - 123360) {
  }
  EXPECT_EQ(source.next_time(), 5'000'000 + phase);
}

TEST(FlowSourcePoisson, MeanRateIsTheOfferedRateAndGapsVary) {
  for (const Arrival arrival : {Arrival::cbr, Arrival::poisson}) {
    FlowSource source(flow(30, arrival, StartPhase::zero), 6);
    double wire_bits = 0;
    std::vector<double> gaps;
    Picos previous = source.next_time();
    for (int i = 0; i < 50000; ++i) {
      wire_bits += (source.pop(source.next_time()).bytes + 20) * 8.0;
      gaps.push_back(double(source.next_time() - previous));
      previous = source.next_time();
    }
    const double gbps = wire_bits / double(source.next_time()) * 1000.0;
    EXPECT_NEAR(gbps, 30, 30 * 0.02) << int(arrival);
    // Sizes are uniform 64..1522, so cbr gaps vary too, but far less than exponential ones.
    if (arrival == Arrival::poisson)
      EXPECT_GT(coefficient_of_variation(gaps), 0.9);
    else
      EXPECT_LT(coefficient_of_variation(gaps), 0.6);
  }
}

// Bursty: frames back to back in bursts of kMeanBurst on average, the
// bursts apart so the mean rate is the flow's.
TEST(FlowSourceBursty, MeanRateIsTheOfferedRateInBurstsOfEightOnAverage) {
  FlowSource source(flow(30, Arrival::bursty, StartPhase::zero), 6);
  double wire_bits = 0;
  int gaps = 0, zero_gaps = 0;
  Picos previous = source.next_time();
  for (int i = 0; i < 80000; ++i) {
    wire_bits += (source.pop(source.next_time()).bytes + 20) * 8.0;
    ++gaps;
    if (source.next_time() == previous) ++zero_gaps;
    previous = source.next_time();
  }
  const double gbps = wire_bits / double(source.next_time()) * 1000.0;
  EXPECT_NEAR(gbps, 30, 30 * 0.03);
  // A burst of n frames has n - 1 gaps of zero: 7 of every 8 on average.
  EXPECT_NEAR(double(zero_gaps) / gaps, 1.0 - 1.0 / kMeanBurst, 0.01);
}

// Timing has a random stream of its own: a Poisson flow sends the same
// destinations and sizes as the cbr flow of the same seed.
TEST(FlowSourcePoisson, SameFramesAsCbrOnlyLaterOrEarlier) {
  FlowSource cbr(flow(50, Arrival::cbr, StartPhase::random), 12);
  FlowSource poisson(flow(50, Arrival::poisson, StartPhase::random), 12);
  EXPECT_EQ(cbr.phase(), poisson.phase());
  bool timing_differs = false;
  for (int i = 0; i < 500; ++i) {
    const GeneratedFrame a = cbr.pop(cbr.next_time()), b = poisson.pop(poisson.next_time());
    EXPECT_EQ(a.bytes, b.bytes);
    EXPECT_EQ(a.dst, b.dst);
    timing_differs |= a.created != b.created;
  }
  EXPECT_TRUE(timing_differs);
}

}  // namespace
}  // namespace fabric::traffic
