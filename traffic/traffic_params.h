#pragma once
// Configuration keys of the traffic generators (traffic.* for a whole-fabric
// pattern, flow.<name>.* for explicit flows), each declared once
// (config/param.h), and the flows they describe.
#include <cstdint>
#include <vector>

#include "config/param.h"
#include "model/multicast/tree_text.h"
#include "traffic/flow_spec.h"
#include "traffic/flow_times.h"
#include "traffic/frame_size.h"
#include "traffic/message_size.h"

namespace fabric::traffic {

extern const char* const kFrameSizeHelp;
extern const char* const kStopHelp;
extern const char* const kArrivalHelp;
extern const char* const kPhaseHelp;

// traffic.*: one pattern of flows over the whole fabric.
struct PatternKeys {
  config::Param<config::IntList> multicast_sources{"traffic.multicast_sources", "", "",
                                                   "multicast pattern: the source ports"};
  config::Param<config::Integer> multicast_flows_per_source{
      "traffic.multicast_flows_per_source",
      "10",
      "",
      "multicast pattern: flows per source; traffic.load_gbps is split over them",
      1,
      1000};
  config::Param<config::IntList> multicast_leaf_pool{
      "traffic.multicast_leaf_pool", "", "", "multicast pattern: the leaves the groups are drawn from (seeded)"};
  config::Param<config::Integer> multicast_leaves_per_flow{
      "traffic.multicast_leaves_per_flow",
      "20",
      "",
      "multicast pattern: leaves per group; a group is every user port of its leaves",
      1,
      100000};
  config::Param<config::Choice> pattern{
      "traffic.pattern",
      "none",
      "whole-fabric traffic pattern: one flow per source port (none: explicit flow.* only)",
      {"none", "permutation", "uniform", "fanin", "multicast"}};
  config::Param<config::Rate> load_gbps{"traffic.load_gbps",
                                        "",
                                        "Gb/s",
                                        "offered load per source port of the pattern, counting 20 B preamble+IFG per "
                                        "frame; unset: topology.user_port_gbps (saturating)",
                                        0,
                                        400};
  config::Param<config::Text> frame_size{"traffic.frame_size", "1522", "B", std::string("pattern ") + kFrameSizeHelp,
                                         FrameSizeDistribution::syntax()};
  config::Param<config::Integer> priority{
      "traffic.priority", "0", "", "Ethernet priority of the pattern's frames", 0, 7};
  config::Param<config::Duration> start{
      "traffic.start", "0", "ps", "time the pattern's flows start", 0, double(kLatestConfiguredTime)};
  config::Param<config::Text> stop{"traffic.stop", "", "ps",
                                   std::string("time the pattern's flows stop creating frames") + kStopHelp,
                                   stop_time_syntax()};
  config::Param<config::Choice> arrival{
      "traffic.arrival", "cbr", std::string("pattern flows: ") + kArrivalHelp, {"cbr", "poisson", "bursty"}};
  config::Param<config::Choice> phase{
      "traffic.phase", "random", std::string("pattern flows: ") + kPhaseHelp, {"random", "zero"}};
  config::Param<config::Choice> permutation{
      "traffic.permutation",
      "random",
      "permutation pattern: random derangement (seeded) or dst = (src + traffic.shift) mod user ports",
      {"random", "shift"}};
  config::Param<config::Integer> shift{
      "traffic.shift", "5", "", "port offset of the shift permutation; not a multiple of the number of user ports"};
  config::Param<config::IntList> fanin_sources{"traffic.fanin_sources", "", "",
                                               "fanin pattern: source user ports, e.g. 0,5,10-12"};
  config::Param<config::Integer> fanin_dest{"traffic.fanin_dest", "0", "", "fanin pattern: the destination user port",
                                            0};
};

// flow.NAME.*: explicit flows.
struct FlowKeys {
  config::PatternParam<config::Integer> src{"flow.*.src", "", "", "explicit flow: source user port (required)", 0};
  config::PatternParam<config::Choice> kind{
      "flow.*.kind",
      "unicast",
      "explicit flow: unicast (each frame to one destination) or multicast (every frame to the group)",
      {"unicast", "multicast"}};
  config::PatternParam<config::IntList> dst{
      "flow.*.dst", "", "",
      "explicit flow: destination user ports (required); unicast: each frame goes to one, drawn uniformly; multicast: "
      "the group, replicated through surrogate ports as needed"};
  config::PatternParam<config::Rate> rate_gbps{
      "flow.*.rate_gbps",
      "",
      "Gb/s",
      "explicit flow: offered rate, counting 20 B preamble+IFG per frame; unset: the source port's line rate, "
      "topology.user_port_gbps (a saturating flow)",
      0.001,
      400};
  config::PatternParam<config::Text> frame_size{"flow.*.frame_size", "1522", "B",
                                                std::string("explicit flow: ") + kFrameSizeHelp,
                                                FrameSizeDistribution::syntax()};
  config::PatternParam<config::Integer> priority{"flow.*.priority", "0", "", "explicit flow: Ethernet priority", 0, 7};
  config::PatternParam<config::Duration> start{
      "flow.*.start", "0", "ps", "explicit flow: time of its first frame", 0, double(kLatestConfiguredTime)};
  config::PatternParam<config::Text> stop{"flow.*.stop", "", "ps",
                                          std::string("explicit flow: frames are created before this time") + kStopHelp,
                                          stop_time_syntax()};
  config::PatternParam<config::Choice> arrival{
      "flow.*.arrival", "cbr", std::string("explicit flow: ") + kArrivalHelp, {"cbr", "poisson", "bursty"}};
  config::PatternParam<config::Choice> phase{
      "flow.*.phase", "random", std::string("explicit flow: ") + kPhaseHelp, {"random", "zero"}};
  config::PatternParam<config::Text> schedule{"flow.*.schedule", "", "",
                                              "explicit flow: on-intervals FROM-TO, e.g. 1ms-2ms,3ms-4ms; the flow is "
                                              "off between them (instead of .start and .stop)",
                                              schedule_syntax()};
  config::PatternParam<config::Integer> frames{"flow.*.frames", "0", "",
                                               "explicit flow: number of frames to send; 0 = unlimited", 0};
  config::PatternParam<config::Text> message{
      "flow.*.message", "", "B",
      "explicit flow: application messages, each to one destination of flow.NAME.dst drawn uniformly per message and "
      "sent as back-to-back frames of at most 1500 B of payload plus 18 B of header and FCS (64 B at least); sizes: " +
          MessageSizeDistribution::syntax().allowed + "; empty: every frame is its own message (flow.NAME.frame_size)",
      MessageSizeDistribution::syntax()};
  config::PatternParam<config::Boolean> closed_loop{
      "flow.*.closed_loop", "false", "",
      "explicit flow: a saturated, closed-loop source: the application makes its next frame as soon as its end "
      "station's buffer has room (no rate); on platforms whose end stations have such buffers"};
};

// The keys every platform reads for its traffic.
struct TrafficKeys {
  PatternKeys pattern;
  FlowKeys flow;
};

// flow.*.tree, flow.*.explicit_tree and multicast.*: the replication trees
// of the switch fabric's multicast flows (platform fabric's keys).
struct MulticastTreeKeys {
  config::PatternParam<config::Choice> tree{
      "flow.*.tree",
      "generic",
      "multicast flow: replication tree builder: generic (any group), affinity (rack, triplet, CIE and egress-switch "
      "surrogates) or explicit (flow.NAME.explicit_tree)",
      {"generic", "affinity", "explicit"}};
  config::PatternParam<config::Text> explicit_tree{"flow.*.explicit_tree", "", "",
                                                   "multicast flow with tree = explicit: PORT:TARGET,...;PORT:... the "
                                                   "local fanout of the source and of each surrogate port",
                                                   tree_fanout_syntax()};
  config::Param<config::Integer> source_fanout{
      "multicast.source_fanout",
      "8",
      "",
      "copies a replication tree's source port makes at most (local ports and first-level surrogates)",
      1,
      8};
  config::Param<config::Integer> max_levels{
      "multicast.max_levels", "4", "", "surrogate levels a replication tree may use below its source", 1, 4};
  config::Param<config::Choice> leaf_order{
      "multicast.leaf_order",
      "leaf_id",
      "generic tree: which of a group's leaves with equally many destinations come nearest the source (first-level "
      "surrogates): leaf_id (lowest ids first) or spread (an order drawn from the group, spreading first-level duty "
      "over leaves)",
      {"leaf_id", "spread"}};
};

// An arrival choice (traffic.arrival, flow.NAME.arrival): cbr, poisson or bursty.
Arrival arrival_named(const std::string& choice);

// Pattern flows first (ids from 0, in port order), then explicit flows in
// sorted name order. A flow or pattern whose rate is not given offers
// line_gbps, the user ports' rate: it saturates its link. Uses only the
// keys that matter for the chosen pattern, so a key set for another pattern
// is reported by Config::check_all_used. Throws fabric::config::ConfigError
// naming the key at fault.
std::vector<FlowSpec> read_flows(const fabric::config::Config& config, int user_ports, double line_gbps, uint64_t seed,
                                 int ports_per_leaf = 5);

}  // namespace fabric::traffic
