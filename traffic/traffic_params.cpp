#include "traffic/traffic_params.h"

#include <limits>
#include <set>
#include <string>

#include "model/multicast/tree_text.h"
#include "traffic/flow_times.h"
#include "traffic/message_size.h"
#include "traffic/patterns.h"
#include "traffic/random.h"

namespace fabric::traffic {
namespace {

using config::Config;
using config::ParamSpec;
using config::ParamType;

const char* const kSizeHelp = "frame sizes: N, uniform:A:B or choice:A,B,... (64 .. 9216 B, without preamble and IFG)";
const char* const kStopHelp = "; empty = never (a duration such as 2ms otherwise)";

ParamSpec spec(std::string key, ParamType type, std::string def, std::string unit, std::string description,
               double min = -std::numeric_limits<double>::infinity(),
               double max = std::numeric_limits<double>::infinity()) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = type;
  s.default_value = std::move(def);
  s.unit = std::move(unit);
  s.description = std::move(description);
  s.min = min;
  s.max = max;
  return s;
}

ParamSpec choice(std::string key, std::string def, std::vector<std::string> choices, std::string description) {
  ParamSpec s = spec(std::move(key), ParamType::choice, std::move(def), "", std::move(description));
  s.choices = std::move(choices);
  return s;
}

// Optional stop time: "" = never (-1). Must lie after start.
Picos read_stop(const Config& config, const std::string& key, Picos start, const std::string& start_key) {
  const std::optional<Picos> stop = parse_stop_time(key, config.get_text(key));
  if (!stop) return -1;
  if (*stop <= start)
    config.fail(key, "a time after " + start_key + " (" + std::to_string(start) + " ps), or empty for never");
  return *stop;
}

const char* const kArrivalHelp =
    "frame spacing: cbr (each frame's wire time at the rate), poisson (exponential gaps with that mean) or bursty "
    "(back-to-back bursts of 8 frames on average, geometric, separated by exponential gaps: the same mean rate)";
const char* const kPhaseHelp =
    "where each on-interval's first frame falls: random (a phase in [0, period) after the start, the period being "
    "the mean frame's wire time at the rate, drawn per flow from the run seed) or zero (exactly at the start); a "
    "flow with frames = 1 always starts exactly";


StartPhase read_phase(const Config& config, const std::string& key) {
  return config.get_choice(key) == "zero" ? StartPhase::zero : StartPhase::random;
}

std::string ports_allowed(int user_ports) { return "user ports 0 .. " + std::to_string(user_ports - 1); }

// A rate the configuration does not give is the port's line rate: the
// source saturates its link, as a server with data to send would.
double rate_or_line(const Config& config, const std::string& key, double line_gbps) {
  return config.is_set(key) ? config.get_rate_gbps(key) : line_gbps;
}

PatternParams read_pattern(const Config& config, double line_gbps) {
  PatternParams p;
  p.pattern = config.get_choice("traffic.pattern");
  if (p.pattern == "none") return p;
  p.load_gbps = rate_or_line(config, "traffic.load_gbps", line_gbps);
  p.frame_size = config.get_text("traffic.frame_size");
  p.priority = int(config.get_int("traffic.priority"));
  p.start = config.get_duration("traffic.start");
  p.stop = read_stop(config, "traffic.stop", p.start, "traffic.start");
  p.arrival = read_arrival(config, "traffic.arrival");
  p.phase = read_phase(config, "traffic.phase");
  if (p.pattern == "permutation") {
    p.permutation = config.get_choice("traffic.permutation");
    if (p.permutation == "shift") p.shift = config.get_int("traffic.shift");
  } else if (p.pattern == "fanin") {
    if (!config.is_set("traffic.fanin_sources")) config.fail("traffic.fanin_sources", "one or more source ports");
    p.fanin_sources = config.get_int_list("traffic.fanin_sources");
    p.fanin_dest = config.get_int("traffic.fanin_dest");
  } else if (p.pattern == "multicast") {
    p.multicast_sources = config.get_int_list("traffic.multicast_sources");
    p.multicast_flows_per_source = config.get_int("traffic.multicast_flows_per_source");
    p.multicast_leaf_pool = config.get_int_list("traffic.multicast_leaf_pool");
    p.multicast_leaves_per_flow = config.get_int("traffic.multicast_leaves_per_flow");
  }
  return p;
}

// flow.NAME.schedule = "1ms-2ms, 3ms-4ms": on-intervals in time order.
void read_schedule(const Config& config, const std::string& prefix, FlowSpec& flow) {
  const std::string key = prefix + "schedule";
  if (config.is_set(prefix + "start") || config.is_set(prefix + "stop"))
    config.fail(key, "not together with " + prefix + "start or " + prefix + "stop");
  flow.schedule = parse_schedule(key, config.get_text(key));
  flow.start = flow.schedule.front().first;
  flow.stop = flow.schedule.back().second;
}

FlowSpec read_explicit_flow(const Config& config, const std::string& name, int user_ports, double line_gbps,
                            FlowId id) {
  const std::string prefix = "flow." + name + ".";
  FlowSpec flow;
  flow.id = id;
  flow.name = name;

  const std::string src_key = prefix + "src";
  if (!config.is_set(src_key)) config.fail(src_key, "the source port of flow " + name + ": " + ports_allowed(user_ports));
  const int64_t src = config.get_int(src_key);
  if (src < 0 || src >= user_ports) config.fail(src_key, ports_allowed(user_ports));
  flow.src = PortId(uint32_t(src));

  flow.multicast = config.get_choice(prefix + "kind") == "multicast";
  if (flow.multicast) {
    flow.tree = config.get_choice(prefix + "tree");
    if (flow.tree == "explicit") {
      if (!config.is_set(prefix + "explicit_tree"))
        config.fail(prefix + "explicit_tree", "the tree of flow " + name + ": PORT:TARGET,...;PORT:... (the source's and each surrogate's local fanout)");
      flow.explicit_tree = config.get_text(prefix + "explicit_tree");
      flow.explicit_fanout = parse_tree_fanout(prefix + "explicit_tree", flow.explicit_tree);
    }
  }
  const std::string dst_key = prefix + "dst";
  std::string dst_allowed = "one or more distinct " + ports_allowed(user_ports) + ", other than flow." + name +
                            ".src = " + std::to_string(src);
  const std::vector<int64_t> dests = config.is_set(dst_key) ? config.get_int_list(dst_key) : std::vector<int64_t>{};
  if (dests.empty()) config.fail(dst_key, dst_allowed);
  std::set<int64_t> seen;
  for (int64_t dst : dests) {
    if (dst < 0 || dst >= user_ports || dst == src || !seen.insert(dst).second) config.fail(dst_key, dst_allowed);
    flow.dests.push_back(PortId(uint32_t(dst)));
  }

  flow.rate_gbps = rate_or_line(config, prefix + "rate_gbps", line_gbps);
  flow.size = FrameSizeDistribution::parse(prefix + "frame_size", config.get_text(prefix + "frame_size"));
  flow.priority = int(config.get_int(prefix + "priority"));
  flow.start = config.get_duration(prefix + "start");
  flow.stop = read_stop(config, prefix + "stop", flow.start, prefix + "start");
  if (config.is_set(prefix + "schedule")) read_schedule(config, prefix, flow);
  flow.max_frames = uint64_t(config.get_int(prefix + "frames"));
  flow.arrival = read_arrival(config, prefix + "arrival");
  flow.phase = read_phase(config, prefix + "phase");
  const std::string message = config.get_text(prefix + "message");
  if (!message.empty()) flow.message = MessageSizeDistribution::parse(prefix + "message", message);
  flow.closed_loop = config.get_bool(prefix + "closed_loop");
  return flow;
}

}  // namespace

Arrival read_arrival(const Config& config, const std::string& key) {
  const std::string a = config.get_choice(key);
  return a == "poisson" ? Arrival::poisson : a == "bursty" ? Arrival::bursty : Arrival::cbr;
}

void declare_traffic_params(config::ParamRegistry& r) {
  r.declare(spec("traffic.multicast_sources", ParamType::int_list, "", "", "multicast pattern: the source ports"));
  r.declare(spec("traffic.multicast_flows_per_source", ParamType::integer, "10", "",
                 "multicast pattern: flows per source; traffic.load_gbps is split over them", 1, 1000));
  r.declare(spec("traffic.multicast_leaf_pool", ParamType::int_list, "", "",
                 "multicast pattern: the leaves the groups are drawn from (seeded)"));
  r.declare(spec("traffic.multicast_leaves_per_flow", ParamType::integer, "20", "",
                 "multicast pattern: leaves per group; a group is every user port of its leaves", 1, 100000));
  r.declare(choice("traffic.pattern", "none", {"none", "permutation", "uniform", "fanin", "multicast"},
                   "whole-fabric traffic pattern: one flow per source port (none: explicit flow.* only)"));
  r.declare(spec("traffic.load_gbps", ParamType::rate, "", "Gb/s",
                 "offered load per source port of the pattern, counting 20 B preamble+IFG per frame; unset: "
                 "topology.user_port_gbps (saturating)", 0, 400));
  r.declare(config::text_param("traffic.frame_size", "1522", "B", std::string("pattern ") + kSizeHelp,
                               FrameSizeDistribution::syntax()));
  r.declare(spec("traffic.priority", ParamType::integer, "0", "", "Ethernet priority of the pattern's frames", 0, 7));
  r.declare(spec("traffic.start", ParamType::duration, "0", "ps", "time the pattern's flows start", 0,
                 double(kLatestConfiguredTime)));
  r.declare(config::text_param("traffic.stop", "", "ps",
                               std::string("time the pattern's flows stop creating frames") + kStopHelp,
                               stop_time_syntax()));
  r.declare(choice("traffic.arrival", "cbr", {"cbr", "poisson", "bursty"}, std::string("pattern flows: ") + kArrivalHelp));
  r.declare(choice("traffic.phase", "random", {"random", "zero"}, std::string("pattern flows: ") + kPhaseHelp));
  r.declare(choice("traffic.permutation", "random", {"random", "shift"},
                   "permutation pattern: random derangement (seeded) or dst = (src + traffic.shift) mod user ports"));
  r.declare(spec("traffic.shift", ParamType::integer, "5", "",
                 "port offset of the shift permutation; not a multiple of the number of user ports"));
  r.declare(spec("traffic.fanin_sources", ParamType::int_list, "", "",
                 "fanin pattern: source user ports, e.g. 0,5,10-12"));
  r.declare(spec("traffic.fanin_dest", ParamType::integer, "0", "", "fanin pattern: the destination user port", 0));

  r.declare(spec("flow.*.src", ParamType::integer, "", "", "explicit flow: source user port (required)", 0));
  r.declare(choice("flow.*.kind", "unicast", {"unicast", "multicast"},
                   "explicit flow: unicast (each frame to one destination) or multicast (every frame to the group)"));
  r.declare(spec("flow.*.dst", ParamType::int_list, "", "",
                 "explicit flow: destination user ports (required); unicast: each frame goes to one, drawn "
                 "uniformly; multicast: the group, replicated through surrogate ports as needed"));
  r.declare(spec("flow.*.rate_gbps", ParamType::rate, "", "Gb/s",
                 "explicit flow: offered rate, counting 20 B preamble+IFG per frame; unset: the source port's "
                 "line rate, topology.user_port_gbps (a saturating flow)", 0.001, 400));
  r.declare(config::text_param("flow.*.frame_size", "1522", "B", std::string("explicit flow: ") + kSizeHelp,
                               FrameSizeDistribution::syntax()));
  r.declare(spec("flow.*.priority", ParamType::integer, "0", "", "explicit flow: Ethernet priority", 0, 7));
  r.declare(spec("flow.*.start", ParamType::duration, "0", "ps", "explicit flow: time of its first frame", 0,
                 double(kLatestConfiguredTime)));
  r.declare(config::text_param("flow.*.stop", "", "ps",
                               std::string("explicit flow: frames are created before this time") + kStopHelp,
                               stop_time_syntax()));
  r.declare(choice("flow.*.arrival", "cbr", {"cbr", "poisson", "bursty"}, std::string("explicit flow: ") + kArrivalHelp));
  r.declare(choice("flow.*.phase", "random", {"random", "zero"}, std::string("explicit flow: ") + kPhaseHelp));
  r.declare(config::text_param("flow.*.schedule", "", "",
                               "explicit flow: on-intervals FROM-TO, e.g. 1ms-2ms,3ms-4ms; the flow is off between "
                               "them (instead of .start and .stop)",
                               schedule_syntax()));
  r.declare(spec("flow.*.frames", ParamType::integer, "0", "",
                 "explicit flow: number of frames to send; 0 = unlimited", 0));
  r.declare(config::text_param("flow.*.message", "", "B",
                               "explicit flow: application messages, each to one destination of flow.NAME.dst drawn "
                               "uniformly per message and sent as back-to-back frames of at most 1500 B of payload "
                               "plus 18 B of header and FCS (64 B at least); sizes: " +
                                   MessageSizeDistribution::syntax().allowed +
                                   "; empty: every frame is its own message (flow.NAME.frame_size)",
                               MessageSizeDistribution::syntax()));
  r.declare(spec("flow.*.closed_loop", ParamType::boolean, "false", "",
                 "explicit flow: a saturated, closed-loop source: the application makes its next frame as soon as "
                 "its end station's buffer has room (no rate); on platforms whose end stations have such buffers"));
}

void declare_multicast_tree_params(config::ParamRegistry& r) {
  r.declare(choice("flow.*.tree", "generic", {"generic", "affinity", "explicit"},
                   "multicast flow: replication tree builder: generic (any group), affinity (rack, triplet, CIE and "
                   "egress-switch surrogates) or explicit (flow.NAME.explicit_tree)"));
  r.declare(config::text_param("flow.*.explicit_tree", "", "",
                               "multicast flow with tree = explicit: PORT:TARGET,...;PORT:... the local fanout of the "
                               "source and of each surrogate port",
                               tree_fanout_syntax()));
  r.declare(spec("multicast.source_fanout", ParamType::integer, "8", "",
                 "copies a replication tree's source port makes at most (local ports and first-level surrogates)", 1, 8));
  r.declare(spec("multicast.max_levels", ParamType::integer, "4", "",
                 "surrogate levels a replication tree may use below its source", 1, 4));
}

std::vector<FlowSpec> read_flows(const Config& config, int user_ports, double line_gbps, uint64_t seed,
                                 int ports_per_leaf) {
  PatternParams pattern = read_pattern(config, line_gbps);
  pattern.ports_per_leaf = ports_per_leaf;
  std::vector<FlowSpec> flows = build_pattern_flows(pattern, user_ports, mix_seed(seed, 0x7061747465726e), FlowId(0));
  std::set<std::string> pattern_names;
  for (const FlowSpec& flow : flows) pattern_names.insert(flow.name);

  for (const std::string& name : config.instances("flow")) {
    // Flow names label results (flows.name), so they must be unique.
    if (pattern_names.count(name))
      config.fail("flow." + name + ".src", "a flow name other than those of the traffic.pattern flows (" + name + ")");
    flows.push_back(read_explicit_flow(config, name, user_ports, line_gbps, FlowId(uint32_t(flows.size()))));
  }
  return flows;
}

}  // namespace fabric::traffic
