#include "platforms/fabric/topology_params.h"

#include <algorithm>
#include <string>

#include "model/core/sim_time.h"

namespace fabric {

TopologyParams read_topology_params(const TopologyKeys& k, int spine_ports) {
  TopologyParams t;
  Geometry& g = t.geometry;
  t.racks = static_cast<int>(k.racks.value());
  g.leaves_per_cie = static_cast<int>(k.leaves_per_cie.value());
  g.cies_per_chassis = static_cast<int>(k.cies_per_chassis.value());
  g.chassis_per_rack = static_cast<int>(k.chassis_per_rack.value());
  const int in_racks = t.racks * g.leaves_per_rack();
  const int leaves = static_cast<int>(k.leaves.value());
  if (leaves > in_racks) k.leaves.fail("at most the leaves of topology.racks (" + std::to_string(in_racks) + ")");
  g.leaves = leaves == 0 ? in_racks : leaves;
  if (g.leaves > spine_ports) {
    const std::string spine_limit =
        "at most spine.ports (" + std::to_string(spine_ports) + ") leaves: each leaf takes one port of every spine";
    if (k.leaves.given()) k.leaves.fail(spine_limit);
    k.racks.fail(spine_limit);
  }
  g.spines = static_cast<int>(k.spines.value());
  const int64_t max_links = k.max_fabric_links.value();
  if (int64_t{g.leaves} * g.spines > max_links)
    k.spines.fail("at most " + std::to_string(std::max<int64_t>(1, max_links / g.leaves)) + " with " +
                  std::to_string(g.leaves) + " leaves: leaves x spines at most topology.max_fabric_links (" +
                  std::to_string(max_links) + ")");
  g.user_ports_per_leaf = static_cast<int>(k.user_ports_per_leaf.value());

  const double ns_per_m = k.propagation_ns_per_m.value();
  t.cna_link.rate_gbps = k.user_port_gbps.value();
  t.cna_link.overhead_bytes = 20;
  t.cna_link.propagation = from_ps(static_cast<Picos>(k.cna_cable_m.value() * ns_per_m * 1000 + 0.5));
  t.fabric_link.rate_gbps = k.uplink_gbps.value();
  t.fabric_link.overhead_bytes = 0;
  t.fabric_link.propagation = from_ps(static_cast<Picos>(k.leaf_spine_cable_m.value() * ns_per_m * 1000 + 0.5));
  return t;
}

}  // namespace fabric
