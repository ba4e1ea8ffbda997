#pragma once
// The checks before the run that depend on the traffic (docs/model.md,
// "Checks before the run"). Each computes what the configured traffic puts
// on a resource (TrafficDemand) and the most the resource can give it along
// the path its mechanism takes at its fastest (a credit riding the smallest
// message back, a request and a grant without queueing), so that the bound
// a warning states is one the run cannot beat; it warns only when the
// traffic asks for more than that, or (the pools) when what the traffic
// makes a port hold crosses a threshold, and names the keys to change
// together with a remedy that passes every check.
#include "config/config.h"
#include "platforms/fabric/fabric_keys.h"
#include "platforms/fabric/traffic_demand.h"

namespace fabric {

// `leaf`: the leaf's parameters as read, with the PAUSE thresholds derived.
void check_traffic_bounds(const FabricKeys& keys, const TopologyParams& topology, const LeafParams& leaf,
                          const TrafficDemand& demand, const config::Config& config);

}  // namespace fabric
