#pragma once
// The fabric's per-instance keys (config/instance_keys.h): its instance
// groups leaf[..], spine[..], cna[..] and link[..], and the parameters of
// each instance given keys of its own. An instance's parameters are read
// as the class-wide ones are, from a view of the configuration with its
// overrides in place of the class-wide values, and go through the same
// checks (leaf 3's cache of 0 entries is refused naming leaf[3].cache.entries;
// a check failing for one instance is a warning naming it). Resolved at
// elaboration: nothing per packet.
#include <vector>

#include "config/config.h"
#include "platforms/fabric/fabric_keys.h"
#include "platforms/fabric/fabric_top.h"
#include "platforms/fabric/traffic_demand.h"
#include "traffic/flow_spec.h"

namespace fabric {

void declare_fabric_instance_groups(config::ParamRegistry& registry);

// The leaf's parameters read from `keys` once the flows are known: the
// lossless limits and the PAUSE window (the same for every leaf).
LeafParams finish_leaf_params(const LeafKeys& keys, LeafParams leaf, const TopologyParams& topology,
                              const std::vector<traffic::FlowSpec>& flows);

struct InstanceInputs {
  Picos stall_timeout = 0;
  Picos sim_time = 0;
  const std::vector<traffic::FlowSpec>* flows = nullptr;
  const TrafficDemand* demand = nullptr;
};

// The errors of the links given their own (link[NAME].errors.*) into
// errors.by_link; a name or pattern that selects no link of `geometry` is a
// ConfigError.
void add_link_error_overrides(const config::Config& config, LinkErrorParams& errors, const Geometry& geometry);

// Fills f.leaf_instances, f.spine_instances, f.cna_instances,
// f.errors.by_link and f.link_gbps from the instance keys given; `f` holds the class-wide
// parameters. An instance out of range or a link the fabric does not have
// is a ConfigError naming the key.
void resolve_fabric_instances(const config::Config& config, FabricConfig& f, const InstanceInputs& inputs);

}  // namespace fabric
