// The traffic.* and flow.*.* configuration keys and read_flows().
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "tests/support/config_error_of.h"
#include "traffic/traffic_params.h"

namespace fabric::traffic {
namespace {

using config::ConfigError;

using fabric::testing::config_error_of;

class TrafficParams : public ::testing::Test {
 protected:
  TrafficParams() {
    config::ParamScope declaring(registry);
    const TrafficKeys traffic;
    const MulticastTreeKeys trees;
  }
  config::ParamRegistry registry;
};

TEST_F(TrafficParams, DefaultsGiveNoFlows) {
  config::Config cfg(registry);
  EXPECT_TRUE(read_flows(cfg, 640, 100, 1).empty());
  EXPECT_NO_THROW(cfg.check_all_used());
}

TEST_F(TrafficParams, PatternThenExplicitFlowsInNameOrder) {
  config::Config cfg(registry);
  cfg.set("traffic.pattern", "fanin");
  cfg.set("traffic.fanin_sources", "5,10");
  cfg.set("traffic.fanin_dest", "0");
  cfg.set("traffic.load_gbps", "10G");
  cfg.set("traffic.stop", "2ms");
  cfg.set("flow.zeta.src", "3");
  cfg.set("flow.zeta.dst", "4");
  cfg.set("flow.alpha.src", "1");
  cfg.set("flow.alpha.dst", "2,6-7");
  cfg.set("flow.alpha.rate_gbps", "25");
  cfg.set("flow.alpha.frame_size", "choice:512,9022");
  cfg.set("flow.alpha.priority", "3");
  cfg.set("flow.alpha.start", "10us");
  cfg.set("flow.alpha.stop", "20us");
  cfg.set("flow.alpha.frames", "7");
  const auto flows = read_flows(cfg, 16, 100, 1);
  ASSERT_EQ(flows.size(), 4u);
  EXPECT_EQ(flows[0].name, "f5");
  EXPECT_EQ(flows[1].name, "f10");
  EXPECT_EQ(flows[1].src, PortId(10));
  EXPECT_EQ(flows[0].stop, 2'000'000'000);
  EXPECT_DOUBLE_EQ(flows[0].rate_gbps, 10);
  const FlowSpec& alpha = flows[2];
  EXPECT_EQ(alpha.id, FlowId(2));
  EXPECT_EQ(alpha.name, "alpha");
  EXPECT_EQ(alpha.src, PortId(1));
  EXPECT_EQ(alpha.dests, (std::vector<PortId>{PortId(2), PortId(6), PortId(7)}));
  EXPECT_DOUBLE_EQ(alpha.rate_gbps, 25);
  EXPECT_EQ(alpha.size.text(), "choice:512,9022");
  EXPECT_EQ(alpha.priority, 3);
  EXPECT_EQ(alpha.start, 10'000'000);
  EXPECT_EQ(alpha.stop, 20'000'000);
  EXPECT_EQ(alpha.max_frames, 7u);
  const FlowSpec& zeta = flows[3];
  EXPECT_EQ(zeta.id, FlowId(3));
  EXPECT_EQ(zeta.stop, -1);
  EXPECT_EQ(zeta.max_frames, 0u);
  EXPECT_EQ(zeta.size.fixed(), 1522u);
  EXPECT_NO_THROW(cfg.check_all_used());
}

// A rate the study does not give is the source port's line rate: the flow
// saturates its link (E8's u1..u3), on 10G ports as on 100G ones.
TEST_F(TrafficParams, FlowWithoutRateOffersTheLineRate) {
  config::Config cfg(registry);
  cfg.set("flow.u1.src", "5");
  cfg.set("flow.u1.dst", "1");
  cfg.set("flow.t.src", "0");
  cfg.set("flow.t.dst", "1");
  cfg.set("flow.t.rate_gbps", "50");
  for (const double line : {100.0, 10.0}) {
    const auto flows = read_flows(cfg, 16, line, 1);
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_EQ(flows[1].name, "u1");
    EXPECT_DOUBLE_EQ(flows[1].rate_gbps, line);
    EXPECT_DOUBLE_EQ(flows[0].rate_gbps, 50);
  }
  config::Config pattern(registry);
  pattern.set("traffic.pattern", "permutation");
  for (const FlowSpec& f : read_flows(pattern, 8, 10, 1)) EXPECT_DOUBLE_EQ(f.rate_gbps, 10) << f.name;
  pattern.set("traffic.pattern", "multicast");
  pattern.set("traffic.multicast_sources", "0");
  pattern.set("traffic.multicast_flows_per_source", "4");
  pattern.set("traffic.multicast_leaf_pool", "1");
  pattern.set("traffic.multicast_leaves_per_flow", "1");
  for (const FlowSpec& f : read_flows(pattern, 8, 10, 1, 4)) EXPECT_DOUBLE_EQ(f.rate_gbps, 2.5) << f.name;
}

TEST_F(TrafficParams, ArrivalAndPhaseDefaultToCbrAndRandom) {
  config::Config cfg(registry);
  cfg.set("traffic.pattern", "permutation");
  cfg.set("traffic.arrival", "poisson");
  cfg.set("traffic.phase", "zero");
  cfg.set("flow.a.src", "1");
  cfg.set("flow.a.dst", "2");
  cfg.set("flow.b.src", "1");
  cfg.set("flow.b.dst", "2");
  cfg.set("flow.b.arrival", "poisson");
  cfg.set("flow.b.phase", "zero");
  const auto flows = read_flows(cfg, 4, 100, 1);
  ASSERT_EQ(flows.size(), 6u);
  EXPECT_EQ(flows[0].arrival, Arrival::poisson);
  EXPECT_EQ(flows[0].phase, StartPhase::zero);
  EXPECT_EQ(flows[4].name, "a");
  EXPECT_EQ(flows[4].arrival, Arrival::cbr);
  EXPECT_EQ(flows[4].phase, StartPhase::random);
  EXPECT_EQ(flows[5].arrival, Arrival::poisson);
  EXPECT_EQ(flows[5].phase, StartPhase::zero);
  EXPECT_NO_THROW(cfg.check_all_used());
}

TEST_F(TrafficParams, PermutationFromConfigIsSeeded) {
  config::Config cfg(registry);
  cfg.set("traffic.pattern", "permutation");
  const auto a = read_flows(cfg, 20, 100, 5), b = read_flows(cfg, 20, 100, 5);
  ASSERT_EQ(a.size(), 20u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].dests, b[i].dests);
    EXPECT_NE(a[i].dests[0], a[i].src);
  }
  cfg.set("traffic.permutation", "shift");
  cfg.set("traffic.shift", "20");
  EXPECT_EQ(config_error_of([&] { read_flows(cfg, 20, 100, 5); }).key, "traffic.shift");
}

// Each case: the keys set, and the key the error must name.
struct BadFlowCase {
  std::vector<std::pair<std::string, std::string>> keys;
  std::string error_key;
};

TEST_F(TrafficParams, ExplicitFlowErrorsNameTheKey) {
  const std::vector<BadFlowCase> cases = {
      {{{"flow.f1.dst", "2"}}, "flow.f1.src"},                           // src missing
      {{{"flow.f1.src", "16"}, {"flow.f1.dst", "2"}}, "flow.f1.src"},    // not a user port
      {{{"flow.f1.src", "1"}}, "flow.f1.dst"},                           // dst missing
      {{{"flow.f1.src", "1"}, {"flow.f1.dst", ""}}, "flow.f1.dst"},      // empty list
      {{{"flow.f1.src", "1"}, {"flow.f1.dst", "2,1"}}, "flow.f1.dst"},   // dst == src
      {{{"flow.f1.src", "1"}, {"flow.f1.dst", "2,16"}}, "flow.f1.dst"},  // not a user port
      {{{"flow.f1.src", "1"}, {"flow.f1.dst", "2,2"}}, "flow.f1.dst"},   // twice
      {{{"flow.f1.src", "1"}, {"flow.f1.dst", "2"}, {"flow.f1.frame_size", "9217"}}, "flow.f1.frame_size"},
      {{{"flow.f1.src", "1"}, {"flow.f1.dst", "2"}, {"flow.f1.stop", "1us"}, {"flow.f1.start", "1us"}},
       "flow.f1.stop"},  // stop <= start
      {{{"flow.f1.src", "1"}, {"flow.f1.dst", "2"}, {"flow.f1.stop", "soon"}}, "flow.f1.stop"},
      {{{"traffic.pattern", "fanin"}}, "traffic.fanin_sources"},
      {{{"traffic.pattern", "fanin"}, {"traffic.fanin_sources", "1,2"}, {"traffic.fanin_dest", "2"}},
       "traffic.fanin_sources"},
      {{{"traffic.pattern", "uniform"}, {"traffic.stop", "0"}}, "traffic.stop"},
      {{{"traffic.pattern", "uniform"}, {"traffic.frame_size", "uniform:64"}}, "traffic.frame_size"},
      // a pattern flow already carries the name f1
      {{{"traffic.pattern", "fanin"}, {"traffic.fanin_sources", "1"}, {"flow.f1.src", "3"}, {"flow.f1.dst", "4"}},
       "flow.f1.src"},
  };
  // Each is refused where it is given (a value that is bad on its own) or
  // where the flows are read (one that needs other keys or the fabric).
  for (const BadFlowCase& c : cases) {
    const config::ConfigError error = config_error_of([&] {
      config::Config cfg(registry);
      for (const auto& [key, value] : c.keys) cfg.set(key, value);
      read_flows(cfg, 16, 100, 1);
    });
    EXPECT_EQ(error.key, c.error_key) << c.keys.back().first;
  }
}

TEST_F(TrafficParams, RangesAreCheckedBySet) {
  config::Config cfg(registry);
  EXPECT_THROW(cfg.set("flow.f1.priority", "8"), ConfigError);
  EXPECT_THROW(cfg.set("flow.f1.rate_gbps", "0"), ConfigError);
  EXPECT_THROW(cfg.set("flow.f1.rate_gbps", "401"), ConfigError);
  EXPECT_THROW(cfg.set("flow.f1.frames", "-1"), ConfigError);
  EXPECT_THROW(cfg.set("traffic.pattern", "ring"), ConfigError);
  const ConfigError arrival = config_error_of([&] { cfg.set("flow.f1.arrival", "pareto"); });
  EXPECT_EQ(arrival.key, "flow.f1.arrival");
  EXPECT_EQ(arrival.value, "pareto");
  EXPECT_NE(arrival.allowed.find("poisson"), std::string::npos) << arrival.allowed;
  EXPECT_EQ(config_error_of([&] { cfg.set("flow.f1.phase", "late"); }).key, "flow.f1.phase");
  EXPECT_EQ(config_error_of([&] { cfg.set("traffic.phase", "late"); }).key, "traffic.phase");
  EXPECT_THROW(cfg.set("traffic.load_gbps", "500"), ConfigError);
}

}  // namespace
}  // namespace fabric::traffic
