// QCN congestion point, reaction point and culprit selection, against
// hand-computed values.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "model/qcn/congestion_point.h"
#include "model/qcn/culprit_selector.h"
#include "model/qcn/reaction_point.h"

namespace fabric {
namespace {

CongestionPoint::Params cp_params() {
  CongestionPoint::Params p;
  p.qeq_bytes = 51200;  // 50 KB
  p.w = 2;
  p.interval_bytes = 1000;
  p.schedule = CongestionPoint::Schedule::fixed;
  p.frames_per_cnm = 100;
  return p;
}

TEST(CongestionPoint, FeedbackAndItsQuantizationByHand) {
  CongestionPoint cp(cp_params(), 1);
  EXPECT_DOUBLE_EQ(cp.fb_max(), 256000);  // Qeq (2w + 1)
  EXPECT_FALSE(cp.on_arrival(999, 50000)) << "the interval is not full yet";
  // Q = 50000, Qold = 0: Fb = (50000 - 51200) + 2 * 50000 = 98800; 63 * 98800 / 256000 = 24.3 -> 25.
  std::optional<CongestionPoint::Sample> s = cp.on_arrival(1, 50000);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->fb, 98800);
  EXPECT_EQ(s->quantized, 25);
  EXPECT_TRUE(s->cnm);
  // Q = 60000, Qold = 50000: Fb = 8800 + 2 * 10000 = 28800 -> 7.09 -> 8; only 2 frames since the CNM.
  s = cp.on_arrival(1000, 60000);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->fb, 28800);
  EXPECT_EQ(s->quantized, 8);
  EXPECT_FALSE(s->cnm) << "at most one CNM per 100 frames";
  // A queue below Qeq and shrinking: Fb < 0, nothing to say.
  s = cp.on_arrival(1000, 20000);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->fb, (20000 - 51200) + 2 * (20000 - 60000));
  EXPECT_EQ(s->quantized, 0);
  EXPECT_FALSE(s->cnm);
  EXPECT_EQ(CongestionPoint::quantize(1e9, 256000), 63) << "saturates at 6 bits";
  EXPECT_EQ(CongestionPoint::quantize(1, 256000), 1) << "any positive feedback is at least 1";
}

TEST(CongestionPoint, OneCnmPerHundredFrames) {
  CongestionPoint::Params p = cp_params();
  p.interval_bytes = 1;  // every frame is sampled
  CongestionPoint cp(p, 1);
  int cnms = 0;
  for (int frame = 0; frame < 1000; ++frame) cnms += cp.on_arrival(1522, 200000 + frame)->cnm;
  EXPECT_EQ(cnms, 10);
}

TEST(CongestionPoint, StandardScheduleSamplesMoreOftenUnderCongestion) {
  CongestionPoint::Params p = cp_params();
  p.schedule = CongestionPoint::Schedule::standard;
  p.interval_bytes = 150 * 1024;
  CongestionPoint cp(p, 3);
  EXPECT_GE(cp.next_interval_bytes(), 0.85 * p.interval_bytes);
  EXPECT_LE(cp.next_interval_bytes(), 1.15 * p.interval_bytes);
  while (!cp.on_arrival(1522, 10e6)) {
  }
  // Fb saturated (63): the next interval is Is / 10, within the +-15 % jitter.
  EXPECT_GE(cp.next_interval_bytes(), 0.085 * p.interval_bytes);
  EXPECT_LE(cp.next_interval_bytes(), 0.115 * p.interval_bytes);
}

ReactionPoint::Params rp_params() {
  ReactionPoint::Params p;
  p.line_gbps = 10;
  p.gd = 1.0 / 128;
  p.min_gbps = 0.01;
  p.fast_recovery_cycles = 5;
  p.byte_cycle = 150 * 1024;
  p.timer_period = 15'000'000'000;  // 15 ms
  p.r_ai_gbps = 0.05;               // 50 Mb/s (the standard has 5 Mb/s at 10G): steps that show in the digits
  p.r_hai_gbps = 0.5;
  return p;
}

TEST(ReactionPoint, RateAfterACnmByHand) {
  ReactionPoint rp(rp_params(), 0);
  rp.on_cnm(32, 0);
  EXPECT_DOUBLE_EQ(rp.target_gbps(), 10);
  EXPECT_DOUBLE_EQ(rp.current_gbps(), 7.5);  // 10 * (1 - 32/128)
  EXPECT_FALSE(rp.released());
  rp.on_cnm(63, 0);
  EXPECT_DOUBLE_EQ(rp.target_gbps(), 7.5);
  EXPECT_DOUBLE_EQ(rp.current_gbps(), 7.5 * 65 / 128);
}

TEST(ReactionPoint, FastRecoveryActiveAndHyperActiveIncreaseByHand) {
  ReactionPoint rp(rp_params(), 0);
  rp.on_cnm(63, 0);
  rp.on_cnm(63, 0);
  EXPECT_DOUBLE_EQ(rp.current_gbps(), 2.5787353515625);
  EXPECT_DOUBLE_EQ(rp.target_gbps(), 5.078125);
  rp.on_sent(150 * 1024 - 1);
  EXPECT_EQ(rp.byte_cycles(), 0u);
  rp.on_sent(1);
  EXPECT_DOUBLE_EQ(rp.current_gbps(), 3.82843017578125);  // (CR + TR) / 2
  rp.on_sent(4 * 150 * 1024);                             // 5 byte-counter cycles: fast recovery
  EXPECT_EQ(rp.byte_cycles(), 5u);
  EXPECT_NEAR(rp.current_gbps(), 5.000019073486328, 1e-12);
  EXPECT_DOUBLE_EQ(rp.target_gbps(), 5.078125);
  rp.on_sent(150 * 1024);  // the 6th: active increase, TR += R_AI
  EXPECT_NEAR(rp.target_gbps(), 5.128125, 1e-12);
  EXPECT_NEAR(rp.current_gbps(), 5.064072036743164, 1e-12);
  rp.on_time(5 * 15'000'000'000LL);  // 5 timer cycles, the byte counter past 5: active
  EXPECT_EQ(rp.timer_cycles(), 5u);
  EXPECT_NEAR(rp.target_gbps(), 5.378125, 1e-12);
  EXPECT_NEAR(rp.current_gbps(), 5.327685844898223, 1e-12);
  rp.on_time(6 * 15'000'000'000LL);  // both past 5: hyper-active, TR += (6 - 5) * R_HAI
  EXPECT_NEAR(rp.target_gbps(), 5.878125, 1e-12);
  EXPECT_NEAR(rp.current_gbps(), 5.602905422449111, 1e-12);
}

TEST(ReactionPoint, MinimumRateAndRelease) {
  ReactionPoint::Params p = rp_params();
  ReactionPoint rp(p, 0);
  for (int i = 0; i < 30; ++i) rp.on_cnm(63, 0);
  EXPECT_DOUBLE_EQ(rp.current_gbps(), 0.01);
  for (int i = 0; i < 2000 && !rp.released(); ++i) rp.on_sent(150 * 1024);
  EXPECT_TRUE(rp.released());
  EXPECT_DOUBLE_EQ(rp.current_gbps(), 10);
}

TEST(CulpritSelection, DeterministicOccupancyPicksTheLargest) {
  OccupancyByFlow occupancy;
  EXPECT_FALSE(occupancy.largest());
  occupancy.add(FlowId(1), 30);
  occupancy.add(FlowId(2), 50);
  occupancy.add(FlowId(3), 40);
  EXPECT_EQ(occupancy.largest(), FlowId(2));
  occupancy.remove(FlowId(2), 20);
  EXPECT_EQ(occupancy.largest(), FlowId(3));
  occupancy.remove(FlowId(3), 10);
  EXPECT_EQ(occupancy.largest(), FlowId(1)) << "30 each: the lowest id";
}

TEST(CulpritSelection, RandomOccupancyPicksAFlowInProportionToItsOccupancy) {
  CulpritArray array(1000);
  std::vector<uint32_t> units;
  // Frames 0 (100 units), 1 (300), 2 (500) of priority 3; frame 9 (100) of priority 5.
  ASSERT_TRUE(array.take(100, 3, 0, units));
  ASSERT_TRUE(array.take(300, 3, 1, units));
  ASSERT_TRUE(array.take(500, 3, 2, units));
  ASSERT_TRUE(array.take(100, 5, 9, units));
  EXPECT_FALSE(array.take(1, 3, 4, units)) << "full";
  std::mt19937_64 rng(11);
  std::map<uint32_t, int> picks;
  const int trials = 100000;
  for (int i = 0; i < trials; ++i) ++picks[*array.sample(3, rng, 16)];
  // Shares 1/9, 3/9, 5/9 of the priority-3 units; standard deviation under 0.0016.
  EXPECT_NEAR(picks[0] / double(trials), 1.0 / 9, 0.01);
  EXPECT_NEAR(picks[1] / double(trials), 3.0 / 9, 0.01);
  EXPECT_NEAR(picks[2] / double(trials), 5.0 / 9, 0.01);
  EXPECT_EQ(picks.count(9), 0u) << "never a unit of another priority";
}

TEST(CulpritSelection, RandomOccupancyFallsBackToAScanAfterItsProbes) {
  CulpritArray array(4096);
  std::vector<uint32_t> one;
  ASSERT_TRUE(array.take(1, 2, 77, one));  // a single unit of priority 2 in 4096
  std::mt19937_64 rng(5);
  uint32_t probes = 0;
  EXPECT_EQ(array.sample(2, rng, 4, &probes), 77u);
  EXPECT_LE(probes, 4u);
  EXPECT_FALSE(array.sample(1, rng, 4)) << "no unit of priority 1";
  array.give_back(one);
  EXPECT_EQ(array.used(), 0u);
  EXPECT_FALSE(array.sample(2, rng, 4));
}

}  // namespace
}  // namespace fabric
