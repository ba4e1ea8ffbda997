#include "traffic/traffic_params.h"

#include <set>
#include <string>

#include "traffic/patterns.h"
#include "traffic/random.h"

namespace fabric::traffic {

const char* const kFrameSizeHelp =
    "frame sizes: N, uniform:A:B or choice:A,B,... (64 .. 9216 B, without preamble and IFG)";
const char* const kStopHelp = "; empty = never (a duration such as 2ms otherwise)";
const char* const kArrivalHelp =
    "frame spacing: cbr (each frame's wire time at the rate), poisson (exponential gaps with that mean) or bursty "
    "(back-to-back bursts of 8 frames on average, geometric, separated by exponential gaps: the same mean rate)";
const char* const kPhaseHelp =
    "where each on-interval's first frame falls: random (a phase in [0, period) after the start, the period being "
    "the mean frame's wire time at the rate, drawn per flow from the run seed) or zero (exactly at the start); a "
    "flow with frames = 1 always starts exactly";

namespace {

using config::Config;

// Optional stop time: "" = never (-1). Must lie after start.
Picos read_stop(const Config& config, const std::string& key, const std::string& text, Picos start,
                const std::string& start_key) {
  const std::optional<Picos> stop = parse_stop_time(key, text);
  if (!stop) return -1;
  if (*stop <= start)
    config.fail(key, "a time after " + start_key + " (" + std::to_string(start) + " ps), or empty for never");
  return *stop;
}

StartPhase phase_named(const std::string& choice) { return choice == "zero" ? StartPhase::zero : StartPhase::random; }

std::string ports_allowed(int user_ports) { return "user ports 0 .. " + std::to_string(user_ports - 1); }

PatternParams read_pattern(const Config& config, const PatternKeys& k, double line_gbps) {
  PatternParams p;
  p.pattern = k.pattern;
  if (p.pattern == "none") return p;
  // A rate the configuration does not give is the port's line rate: the
  // source saturates its link, as a server with data to send would.
  p.load_gbps = k.load_gbps.has_value() ? k.load_gbps.value() : line_gbps;
  p.frame_size = k.frame_size;
  p.priority = int(k.priority.value());
  p.start = k.start;
  p.stop = read_stop(config, k.stop.key(), k.stop, p.start, k.start.key());
  p.arrival = arrival_named(k.arrival);
  p.phase = phase_named(k.phase);
  if (p.pattern == "permutation") {
    p.permutation = k.permutation;
    if (p.permutation == "shift") p.shift = k.shift;
  } else if (p.pattern == "fanin") {
    if (!k.fanin_sources.given()) k.fanin_sources.fail("one or more source ports");
    p.fanin_sources = k.fanin_sources;
    p.fanin_dest = k.fanin_dest;
  } else if (p.pattern == "multicast") {
    p.multicast_sources = k.multicast_sources;
    p.multicast_flows_per_source = k.multicast_flows_per_source;
    p.multicast_leaf_pool = k.multicast_leaf_pool;
    p.multicast_leaves_per_flow = k.multicast_leaves_per_flow;
  }
  return p;
}

// flow.NAME.schedule = "1ms-2ms, 3ms-4ms": on-intervals in time order.
void read_schedule(const Config& config, const FlowKeys& k, const std::string& name, FlowSpec& flow) {
  const std::string key = k.schedule.key_of(name);
  if (k.start.given_in(config, name) || k.stop.given_in(config, name))
    config.fail(key, "not together with " + k.start.key_of(name) + " or " + k.stop.key_of(name));
  flow.schedule = parse_schedule(key, k.schedule.of(config, name));
  flow.start = flow.schedule.front().first;
  flow.stop = flow.schedule.back().second;
}

FlowSpec read_explicit_flow(const Config& config, const FlowKeys& k, const MulticastTreeKeys& trees,
                            const std::string& name, int user_ports, double line_gbps, FlowId id) {
  FlowSpec flow;
  flow.id = id;
  flow.name = name;

  const std::string src_key = k.src.key_of(name);
  if (!k.src.given_in(config, name))
    config.fail(src_key, "the source port of flow " + name + ": " + ports_allowed(user_ports));
  const int64_t src = k.src.of(config, name);
  if (src < 0 || src >= user_ports) config.fail(src_key, ports_allowed(user_ports));
  flow.src = PortId(uint32_t(src));

  flow.multicast = k.kind.of(config, name) == "multicast";
  if (flow.multicast) {
    flow.tree = trees.tree.of(config, name);
    if (flow.tree == "explicit") {
      const std::string tree_key = trees.explicit_tree.key_of(name);
      if (!trees.explicit_tree.given_in(config, name))
        config.fail(tree_key, "the tree of flow " + name +
                                  ": PORT:TARGET,...;PORT:... (the source's and each surrogate's local fanout)");
      flow.explicit_tree = trees.explicit_tree.of(config, name);
      flow.explicit_fanout = parse_tree_fanout(tree_key, flow.explicit_tree);
    }
  }
  const std::string dst_key = k.dst.key_of(name);
  std::string dst_allowed =
      "one or more distinct " + ports_allowed(user_ports) + ", other than " + src_key + " = " + std::to_string(src);
  const std::vector<int64_t> dests = k.dst.given_in(config, name) ? k.dst.of(config, name) : std::vector<int64_t>{};
  if (dests.empty()) config.fail(dst_key, dst_allowed);
  std::set<int64_t> seen;
  for (int64_t dst : dests) {
    if (dst < 0 || dst >= user_ports || dst == src || !seen.insert(dst).second) config.fail(dst_key, dst_allowed);
    flow.dests.push_back(PortId(uint32_t(dst)));
  }

  flow.rate_gbps = k.rate_gbps.given_in(config, name) ? k.rate_gbps.of(config, name) : line_gbps;
  flow.size = FrameSizeDistribution::parse(k.frame_size.key_of(name), k.frame_size.of(config, name));
  flow.priority = int(k.priority.of(config, name));
  flow.start = k.start.of(config, name);
  flow.stop = read_stop(config, k.stop.key_of(name), k.stop.of(config, name), flow.start, k.start.key_of(name));
  if (k.schedule.given_in(config, name)) read_schedule(config, k, name, flow);
  flow.max_frames = uint64_t(k.frames.of(config, name));
  flow.arrival = arrival_named(k.arrival.of(config, name));
  flow.phase = phase_named(k.phase.of(config, name));
  const std::string message = k.message.of(config, name);
  if (!message.empty()) flow.message = MessageSizeDistribution::parse(k.message.key_of(name), message);
  flow.closed_loop = k.closed_loop.of(config, name);
  return flow;
}

}  // namespace

Arrival arrival_named(const std::string& a) {
  return a == "poisson" ? Arrival::poisson : a == "bursty" ? Arrival::bursty : Arrival::cbr;
}

std::vector<FlowSpec> read_flows(const Config& config, int user_ports, double line_gbps, uint64_t seed,
                                 int ports_per_leaf) {
  const config::ParamScope reading(config);
  const TrafficKeys k;
  const MulticastTreeKeys trees;
  PatternParams pattern = read_pattern(config, k.pattern, line_gbps);
  pattern.ports_per_leaf = ports_per_leaf;
  std::vector<FlowSpec> flows = build_pattern_flows(pattern, user_ports, mix_seed(seed, 0x7061747465726e), FlowId(0));
  std::set<std::string> pattern_names;
  for (const FlowSpec& flow : flows) pattern_names.insert(flow.name);

  for (const std::string& name : config.instances("flow")) {
    // Flow names label results (flows.name), so they must be unique.
    if (pattern_names.count(name))
      config.fail(k.flow.src.key_of(name), "a flow name other than those of the traffic.pattern flows (" + name + ")");
    flows.push_back(
        read_explicit_flow(config, k.flow, trees, name, user_ports, line_gbps, FlowId(uint32_t(flows.size()))));
  }
  return flows;
}

}  // namespace fabric::traffic
