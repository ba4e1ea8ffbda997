#include "platforms/fabric/topology_params.h"

#include <algorithm>
#include <string>

#include "model/core/sim_time.h"

namespace fabric {

using config::ParamType;

void declare_topology_params(config::ParamRegistry& r) {
  r.declare({"topology.racks", ParamType::integer, "4", "racks", "racks of 2 chassis x 4 CIEs x 4 leaves", 1, 64});
  r.declare({"topology.leaves", ParamType::integer, "0", "leaves", "use only the first N leaves of the racks (0: all of them); 1 or 2 for small studies", 0, 4096});
  r.declare({"topology.spines", ParamType::integer, "32", "spines", "spine switches; each leaf has one uplink to each", 1, 256});
  r.declare({"topology.user_ports_per_leaf", ParamType::integer, "5", "ports", "Ethernet user ports per leaf, one CNA behind each", 1, 8});
  r.declare({"topology.leaves_per_cie", ParamType::integer, "4", "leaves", "leaves per chassis interconnect element", 1, 64});
  r.declare({"topology.cies_per_chassis", ParamType::integer, "4", "CIEs", "CIEs per chassis", 1, 64});
  r.declare({"topology.chassis_per_rack", ParamType::integer, "2", "chassis", "chassis per rack", 1, 64});
  r.declare({"topology.user_port_gbps", ParamType::rate, "100", "Gb/s", "CNA-leaf link rate (10 for the QCN fan-in studies)", 0.1, 1000});
  r.declare({"topology.uplink_gbps", ParamType::rate, "25", "Gb/s", "leaf-spine link rate", 0.1, 1000});
  r.declare({"topology.leaf_spine_cable_m", ParamType::real, "40", "m", "leaf-spine cable length", 0, 10000});
  r.declare({"topology.cna_cable_m", ParamType::real, "2", "m", "CNA-leaf cable length", 0, 10000});
  r.declare({"topology.max_fabric_links", ParamType::integer, "32768", "links",
             "guard: at most this many leaf-spine link pairs (topology leaves x topology.spines; the full system has "
             "4096), so that a typo cannot build a model for minutes past the machine's memory; raise it knowingly",
             1, 1048576});
  r.declare({"topology.propagation_ns_per_m", ParamType::real, "5", "ns/m", "signal propagation delay per metre of cable", 0, 100});
}

TopologyParams read_topology_params(const config::Config& c, int spine_ports) {
  TopologyParams t;
  Geometry& g = t.geometry;
  t.racks = static_cast<int>(c.get_int("topology.racks"));
  g.leaves_per_cie = static_cast<int>(c.get_int("topology.leaves_per_cie"));
  g.cies_per_chassis = static_cast<int>(c.get_int("topology.cies_per_chassis"));
  g.chassis_per_rack = static_cast<int>(c.get_int("topology.chassis_per_rack"));
  const int in_racks = t.racks * g.leaves_per_rack();
  const int leaves = static_cast<int>(c.get_int("topology.leaves"));
  if (leaves > in_racks) c.fail("topology.leaves", "at most the leaves of topology.racks (" + std::to_string(in_racks) + ")");
  g.leaves = leaves == 0 ? in_racks : leaves;
  if (g.leaves > spine_ports)
    c.fail(c.is_set("topology.leaves") ? "topology.leaves" : "topology.racks",
           "at most spine.ports (" + std::to_string(spine_ports) + ") leaves: each leaf takes one port of every spine");
  g.spines = static_cast<int>(c.get_int("topology.spines"));
  const int64_t max_links = c.get_int("topology.max_fabric_links");
  if (int64_t{g.leaves} * g.spines > max_links)
    c.fail("topology.spines", "at most " + std::to_string(std::max<int64_t>(1, max_links / g.leaves)) + " with " +
                                  std::to_string(g.leaves) + " leaves: leaves x spines at most topology.max_fabric_links (" +
                                  std::to_string(max_links) + ")");
  g.user_ports_per_leaf = static_cast<int>(c.get_int("topology.user_ports_per_leaf"));

  const double ns_per_m = c.get_real("topology.propagation_ns_per_m");
  t.cna_link.rate_gbps = c.get_rate_gbps("topology.user_port_gbps");
  t.cna_link.overhead_bytes = 20;
  t.cna_link.propagation = from_ps(static_cast<Picos>(c.get_real("topology.cna_cable_m") * ns_per_m * 1000 + 0.5));
  t.fabric_link.rate_gbps = c.get_rate_gbps("topology.uplink_gbps");
  t.fabric_link.overhead_bytes = 0;
  t.fabric_link.propagation =
      from_ps(static_cast<Picos>(c.get_real("topology.leaf_spine_cable_m") * ns_per_m * 1000 + 0.5));
  return t;
}

}  // namespace fabric
