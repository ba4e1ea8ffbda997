#pragma once
// Configuration keys of the traffic generators (traffic.* for a whole-fabric
// pattern, flow.<name>.* for explicit flows) and the flows they describe.
#include <cstdint>
#include <vector>

#include "model/config/config.h"
#include "traffic/flow_spec.h"

namespace fabric::traffic {

void declare_traffic_params(fabric::config::ParamRegistry& registry);
// flow.*.tree, flow.*.explicit_tree and multicast.*: the replication trees
// of the switch fabric's multicast flows.
void declare_multicast_tree_params(fabric::config::ParamRegistry& registry);

// Pattern flows first (ids from 0, in port order), then explicit flows in
// sorted name order. A flow or pattern whose rate is not given offers
// line_gbps, the user ports' rate: it saturates its link. Reads only the
// keys that matter for the chosen pattern, so a key set for another pattern
// is reported by Config::check_all_used. Throws fabric::config::ConfigError
// naming the key at fault.
// An arrival key (traffic.arrival, flow.NAME.arrival): cbr, poisson or bursty.
Arrival read_arrival(const fabric::config::Config& config, const std::string& key);

std::vector<FlowSpec> read_flows(const fabric::config::Config& config, int user_ports, double line_gbps,
                                 uint64_t seed, int ports_per_leaf = 5);

}  // namespace fabric::traffic
