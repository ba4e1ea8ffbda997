#pragma once
// Whole-fabric traffic patterns expanded into one flow per source port.
#include <cstdint>
#include <string>
#include <vector>

#include "model/core/ids.h"
#include "traffic/flow_spec.h"

namespace fabric::traffic {

struct PatternParams {
  std::string pattern = "none";     // none | permutation | uniform | fanin
  double load_gbps = 100;           // per source port
  std::string frame_size = "1522";  // FrameSizeDistribution syntax
  int priority = 0;
  Picos start = 0;
  Picos stop = -1;  // -1 = never
  Arrival arrival = Arrival::cbr;
  StartPhase phase = StartPhase::random;
  std::string permutation = "random";  // random | shift
  int64_t shift = 5;
  std::vector<int64_t> fanin_sources;
  int64_t fanin_dest = 0;
  // multicast: each source sends flows_per_source groups, each to every
  // user port of leaves_per_flow leaves drawn from leaf_pool (seeded).
  std::vector<int64_t> multicast_sources;
  int64_t multicast_flows_per_source = 10;
  std::vector<int64_t> multicast_leaf_pool;
  int64_t multicast_leaves_per_flow = 20;
  int ports_per_leaf = 5;
};

// Flows (ids consecutive from first_id, in source port order) for the pattern:
//   permutation/random  a seeded random derangement of the user ports, "p<src>"
//   permutation/shift   dst = (src + shift) mod user_ports, "p<src>"
//   uniform             every other user port, drawn per frame, "u<src>"
//   fanin               each of fanin_sources to fanin_dest, "f<src>"
//   multicast           per source, multicast groups of whole leaves drawn
//                       from a pool, "m<src>_<i>", the load split over them
//   none                no flows
// Throws fabric::config::ConfigError naming the traffic.* key at fault.
std::vector<FlowSpec> build_pattern_flows(const PatternParams& params, int user_ports, uint64_t seed, FlowId first_id);

}  // namespace fabric::traffic
