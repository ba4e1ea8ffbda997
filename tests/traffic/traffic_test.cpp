// Traffic generation: frame size specs, flow sources and patterns.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "config/config.h"
#include "tests/support/config_error_of.h"
#include "traffic/flow_source.h"
#include "traffic/patterns.h"

namespace fabric::traffic {
namespace {

using config::ConfigError;

using fabric::testing::config_error_of;

FlowSpec unicast_flow(double rate, const std::string& size = "1522") {
  FlowSpec f;
  f.id = FlowId(7);
  f.name = "t";
  f.src = PortId(0);
  f.dests = {PortId(1)};
  f.rate_gbps = rate;
  f.size = FrameSizeDistribution::parse("k", size);
  f.phase = StartPhase::zero;  // these tests count from start; arrival_test.cpp covers the phase
  return f;
}

// ---- frame sizes ----

TEST(TrafficFrameSize, ParsesFixedUniformAndChoice) {
  auto fixed = FrameSizeDistribution::parse("k", "1522");
  EXPECT_EQ(fixed.fixed(), 1522u);
  EXPECT_DOUBLE_EQ(fixed.mean(), 1522);
  EXPECT_EQ(fixed.text(), "1522");

  auto uniform = FrameSizeDistribution::parse("k", "uniform:64:1522");
  EXPECT_FALSE(uniform.fixed());
  EXPECT_DOUBLE_EQ(uniform.mean(), (64 + 1522) / 2.0);
  EXPECT_EQ(uniform.text(), "uniform:64:1522");

  auto choice = FrameSizeDistribution::parse("k", "choice:64,512,1522");
  EXPECT_FALSE(choice.fixed());
  EXPECT_DOUBLE_EQ(choice.mean(), (64 + 512 + 1522) / 3.0);
  EXPECT_EQ(choice.text(), "choice:64,512,1522");
  EXPECT_EQ(FrameSizeDistribution::parse("k", choice.text()).text(), choice.text());

  EXPECT_EQ(FrameSizeDistribution::parse("k", "64").fixed(), 64u);
  EXPECT_EQ(FrameSizeDistribution::parse("k", "9216").fixed(), 9216u);
}

TEST(TrafficFrameSize, DrawsStayInTheDistribution) {
  std::mt19937_64 rng(1);
  auto uniform = FrameSizeDistribution::parse("k", "uniform:100:103");
  std::set<uint32_t> seen_uniform;
  for (int i = 0; i < 1000; ++i) seen_uniform.insert(uniform.draw(rng));
  EXPECT_EQ(seen_uniform, (std::set<uint32_t>{100, 101, 102, 103}));

  auto choice = FrameSizeDistribution::parse("k", "choice:64,512,1522");
  std::set<uint32_t> seen_choice;
  for (int i = 0; i < 1000; ++i) seen_choice.insert(choice.draw(rng));
  EXPECT_EQ(seen_choice, (std::set<uint32_t>{64, 512, 1522}));
}

TEST(TrafficFrameSize, RejectsMalformedAndOutOfRange) {
  for (const char* bad :
       {"", "63", "9217", "abc", "1522B", "-64", "1.5e3", "uniform:64", "uniform:1522:64", "uniform:64:1522:9000",
        "uniform:10:100", "choice:", "choice:64,,512", "choice:64,10000", "fixed:64", "uniform 64 1522"}) {
    const ConfigError e = config_error_of([&] { FrameSizeDistribution::parse("flow.f1.frame_size", bad); });
    EXPECT_EQ(e.key, "flow.f1.frame_size") << bad;
    EXPECT_EQ(e.value, bad);
    EXPECT_EQ(e.allowed.rfind("N, uniform:A:B (A <= B) or choice:A,B,... with sizes 64 .. 9216 (B) -- ", 0), 0u)
        << e.allowed;
  }
}

// ---- flow source ----

TEST(TrafficFlowSource, FullRate1522IsExactly123360ps) {
  FlowSource source(unicast_flow(100), 1);
  Picos previous = source.next_time();
  EXPECT_EQ(previous, 0);
  for (uint64_t i = 0; i < 100; ++i) {
    const GeneratedFrame f = source.pop(source.next_time());
    EXPECT_EQ(f.created, previous);
    EXPECT_EQ(f.sequence, i);
    EXPECT_EQ(f.bytes, 1522u);
    EXPECT_EQ(f.dst, PortId(1));
    EXPECT_EQ(f.flow, FlowId(7));
    EXPECT_EQ(source.next_time() - previous, 123360);
    previous = source.next_time();
  }
}

TEST(TrafficFlowSource, LongRunRateIsExact) {
  for (const char* size : {"1522", "uniform:64:9216", "choice:64,1522"}) {
    FlowSpec spec = unicast_flow(33.3, size);  // non-integer spacing: the carry matters
    FlowSource source(spec, 42);
    double wire_bits = 0;
    for (int i = 0; i < 10000; ++i) wire_bits += (source.pop(source.next_time()).bytes + 20) * 8.0;
    const double gbps = wire_bits / double(source.next_time()) * 1000.0;  // bits per ps -> Gb/s
    EXPECT_NEAR(gbps, 33.3, 33.3 * 0.001) << size;
  }
}

TEST(TrafficFlowSource, SameSeedSameFrames) {
  FlowSpec spec = unicast_flow(50, "uniform:64:1522");
  spec.dests = {PortId(1), PortId(2), PortId(3)};
  FlowSource a(spec, 9), b(spec, 9), c(spec, 10);
  bool differs = false;
  for (int i = 0; i < 200; ++i) {
    const GeneratedFrame fa = a.pop(a.next_time()), fb = b.pop(b.next_time()), fc = c.pop(c.next_time());
    EXPECT_EQ(fa.bytes, fb.bytes);
    EXPECT_EQ(fa.dst, fb.dst);
    EXPECT_EQ(fa.created, fb.created);
    differs |= fa.bytes != fc.bytes || fa.dst != fc.dst;
  }
  EXPECT_TRUE(differs);
  EXPECT_NE(flow_seed(1, FlowId(0)), flow_seed(1, FlowId(1)));
}

TEST(TrafficFlowSource, StopEndsGenerationBeforeStop) {
  FlowSpec spec = unicast_flow(100);
  spec.start = 1000;
  spec.stop = 1000 + 3 * 123360;  // a frame would be created exactly at stop: it is not
  FlowSource source(spec, 1);
  EXPECT_EQ(source.next_time(), 1000);
  int frames = 0;
  while (!source.finished()) {
    EXPECT_LT(source.pop(source.next_time()).created, spec.stop);
    ++frames;
  }
  EXPECT_EQ(frames, 3);
  EXPECT_EQ(source.next_time(), kNever);
  EXPECT_THROW(source.pop(kNever), std::logic_error);
}

TEST(TrafficFlowSource, MaxFramesEndsGeneration) {
  FlowSpec spec = unicast_flow(100);
  spec.max_frames = 1;  // E11: one frame per flow
  FlowSource source(spec, 1);
  EXPECT_EQ(source.pop(0).sequence, 0u);
  EXPECT_EQ(source.next_time(), kNever);
  EXPECT_EQ(source.frames_created(), 1u);
}

TEST(TrafficFlowSource, ZeroRateNeverSends) { EXPECT_EQ(FlowSource(unicast_flow(0), 1).next_time(), kNever); }

// A start plus the phase, or a frame time plus the gap, beyond the int64
// range is never, not a wrapped negative time (which looped for ever).
TEST(TrafficFlowSource, TimesAtTheEndOfTheRangeDoNotWrap) {
  FlowSpec spec = unicast_flow(0.001, "9216");
  spec.phase = StartPhase::random;
  spec.start = std::numeric_limits<Picos>::max() - 1;
  EXPECT_EQ(FlowSource(spec, 1).next_time(), kNever);
  spec.phase = StartPhase::zero;
  FlowSource source(spec, 1);
  EXPECT_EQ(source.pop(spec.start).created, spec.start);
  EXPECT_EQ(source.next_time(), kNever);
}

TEST(TrafficFlowSource, PopBeforeCreationIsAnError) {
  FlowSpec spec = unicast_flow(100);
  spec.start = 500;
  FlowSource source(spec, 1);
  EXPECT_THROW(source.pop(499), std::logic_error);
  EXPECT_EQ(source.pop(800).created, 500);  // popped late: keeps its creation time
}

TEST(TrafficFlowSource, DeferToMovesOnlyForward) {
  FlowSpec spec = unicast_flow(100);
  spec.stop = 1'000'000;
  FlowSource source(spec, 1);
  source.pop(0);
  EXPECT_EQ(source.next_time(), 123360);
  source.defer_to(100);  // earlier than next: no change
  EXPECT_EQ(source.next_time(), 123360);
  source.defer_to(500000);
  EXPECT_EQ(source.next_time(), 500000);
  EXPECT_EQ(source.pop(500000).created, 500000);
  EXPECT_EQ(source.next_time(), 500000 + 123360);
  source.defer_to(1'000'000);  // backpressured up to stop: finished
  EXPECT_TRUE(source.finished());
}

TEST(TrafficFlowSource, UniformDestinationsAllUsedNeverSource) {
  PatternParams uniform;
  uniform.pattern = "uniform";
  const auto flows = build_pattern_flows(uniform, 10, 3, FlowId(0));
  ASSERT_EQ(flows.size(), 10u);
  FlowSource source(flows[4], flow_seed(3, flows[4].id));
  std::map<uint32_t, int> count;
  for (int i = 0; i < 9000; ++i) ++count[raw(source.pop(source.next_time()).dst)];
  EXPECT_EQ(count.size(), 9u);
  EXPECT_EQ(count.count(4), 0u);
  for (const auto& [dst, n] : count) EXPECT_NEAR(n, 1000, 150) << dst;
}

// ---- patterns ----

PatternParams permutation(const std::string& kind, int64_t shift = 5) {
  PatternParams p;
  p.pattern = "permutation";
  p.permutation = kind;
  p.shift = shift;
  return p;
}

TEST(TrafficPatterns, NoneGivesNoFlows) { EXPECT_TRUE(build_pattern_flows({}, 640, 1, FlowId(0)).empty()); }

TEST(TrafficPatterns, RandomPermutationIsADerangementDeterministicPerSeed) {
  const auto a = build_pattern_flows(permutation("random"), 640, 11, FlowId(3));
  const auto b = build_pattern_flows(permutation("random"), 640, 11, FlowId(3));
  const auto c = build_pattern_flows(permutation("random"), 640, 12, FlowId(3));
  ASSERT_EQ(a.size(), 640u);
  std::set<uint32_t> targets;
  bool differs = false;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].id, FlowId(3 + i));
    EXPECT_EQ(a[i].name, "p" + std::to_string(i));
    EXPECT_EQ(a[i].src, PortId(i));
    ASSERT_EQ(a[i].dests.size(), 1u);
    EXPECT_NE(a[i].dests[0], a[i].src);
    EXPECT_EQ(a[i].dests, b[i].dests);
    differs |= a[i].dests != c[i].dests;
    targets.insert(raw(a[i].dests[0]));
  }
  EXPECT_EQ(targets.size(), 640u);  // a permutation: every port receives once
  EXPECT_TRUE(differs);
  for (int n = 2; n <= 5; ++n)
    for (uint64_t seed = 0; seed < 50; ++seed)
      for (const auto& f : build_pattern_flows(permutation("random"), n, seed, FlowId(0))) EXPECT_NE(f.dests[0], f.src);
}

TEST(TrafficPatterns, ShiftPermutation) {
  const auto flows = build_pattern_flows(permutation("shift", 5), 640, 1, FlowId(0));
  ASSERT_EQ(flows.size(), 640u);
  EXPECT_EQ(flows[0].dests[0], PortId(5));
  EXPECT_EQ(flows[637].dests[0], PortId(2));
  const auto back = build_pattern_flows(permutation("shift", -1), 10, 1, FlowId(0));
  EXPECT_EQ(back[0].dests[0], PortId(9));
  for (int64_t bad : {0, 10, -20}) {
    EXPECT_EQ(config_error_of([&] { build_pattern_flows(permutation("shift", bad), 10, 1, FlowId(0)); }).key,
              "traffic.shift");
  }
}

TEST(TrafficPatterns, FaninFlowsAndValidation) {
  PatternParams p;
  p.pattern = "fanin";
  p.fanin_sources = {10, 5, 15};
  p.fanin_dest = 0;
  p.load_gbps = 25;
  const auto flows = build_pattern_flows(p, 640, 1, FlowId(0));
  ASSERT_EQ(flows.size(), 3u);
  EXPECT_EQ(flows[0].name, "f5");  // port order
  EXPECT_EQ(flows[2].name, "f15");
  EXPECT_EQ(flows[1].id, FlowId(1));
  for (const auto& f : flows) {
    EXPECT_EQ(f.dests, std::vector<PortId>{PortId(0)});
    EXPECT_DOUBLE_EQ(f.rate_gbps, 25);
  }

  auto key_of = [](PatternParams q) { return config_error_of([&] { build_pattern_flows(q, 640, 1, FlowId(0)); }).key; };
  PatternParams self = p;
  self.fanin_sources = {5, 0};
  EXPECT_EQ(key_of(self), "traffic.fanin_sources");
  PatternParams big_src = p;
  big_src.fanin_sources = {640};
  EXPECT_EQ(key_of(big_src), "traffic.fanin_sources");
  PatternParams big_dst = p;
  big_dst.fanin_dest = 640;
  EXPECT_EQ(key_of(big_dst), "traffic.fanin_dest");
  PatternParams empty = p;
  empty.fanin_sources = {};
  EXPECT_EQ(key_of(empty), "traffic.fanin_sources");
  PatternParams bad_size = p;
  bad_size.frame_size = "32";
  EXPECT_EQ(key_of(bad_size), "traffic.frame_size");
}

}  // namespace
}  // namespace fabric::traffic
