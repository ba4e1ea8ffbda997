#pragma once
// topology.* keys: the shape of the fabric and its links.
#include "model/config/config.h"
#include "model/core/geometry.h"
#include "model/link/link.h"

namespace fabric {

struct TopologyParams {
  Geometry geometry;
  int racks = 4;
  LinkParams cna_link;     // CNA <-> leaf, Ethernet
  LinkParams fabric_link;  // leaf <-> spine
};

void declare_topology_params(config::ParamRegistry& registry);
TopologyParams read_topology_params(const config::Config& config, int spine_ports);

}  // namespace fabric
