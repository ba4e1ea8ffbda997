#pragma once
// topology.* keys, each declared once (config/param.h): the shape of the
// fabric and its links.
#include "config/param.h"
#include "model/core/geometry.h"
#include "model/link/link.h"

namespace fabric {

struct TopologyKeys {
  config::Param<config::Integer> racks{"topology.racks", "4", "racks", "racks of 2 chassis x 4 CIEs x 4 leaves", 1, 64};
  config::Param<config::Integer> leaves{
      "topology.leaves",
      "0",
      "leaves",
      "use only the first N leaves of the racks (0: all of them); 1 or 2 for small studies",
      0,
      4096};
  config::Param<config::Integer> spines{
      "topology.spines", "32", "spines", "spine switches; each leaf has one uplink to each", 1, 256};
  config::Param<config::Integer> user_ports_per_leaf{
      "topology.user_ports_per_leaf", "5", "ports", "Ethernet user ports per leaf, one CNA behind each", 1, 8};
  config::Param<config::Integer> leaves_per_cie{
      "topology.leaves_per_cie", "4", "leaves", "leaves per chassis interconnect element", 1, 64};
  config::Param<config::Integer> cies_per_chassis{"topology.cies_per_chassis", "4", "CIEs", "CIEs per chassis", 1, 64};
  config::Param<config::Integer> chassis_per_rack{"topology.chassis_per_rack", "2", "chassis",
                                                  "chassis per rack",          1,   64};
  config::Param<config::Rate> user_port_gbps{
      "topology.user_port_gbps", "100", "Gb/s", "CNA-leaf link rate (10 for the QCN fan-in studies)", 0.1, 1000};
  config::Param<config::Rate> uplink_gbps{"topology.uplink_gbps", "25", "Gb/s", "leaf-spine link rate", 0.1, 1000};
  config::Param<config::Real> leaf_spine_cable_m{
      "topology.leaf_spine_cable_m",
      "40",
      "m",
      "leaf-spine cable length (the link retry, the credit windows and the end-to-end timeouts left auto follow it)",
      0,
      10000};
  config::Param<config::Real> cna_cable_m{"topology.cna_cable_m", "2", "m", "CNA-leaf cable length", 0, 10000};
  config::Param<config::Integer> max_fabric_links{
      "topology.max_fabric_links",
      "32768",
      "links",
      "guard: at most this many leaf-spine link pairs (topology leaves x topology.spines; the full system has "
      "4096), so that a typo cannot build a model for minutes past the machine's memory; raise it knowingly",
      1,
      1048576};
  config::Param<config::Real> propagation_ns_per_m{
      "topology.propagation_ns_per_m", "5", "ns/m", "signal propagation delay per metre of cable", 0, 100};
};

struct TopologyParams {
  Geometry geometry;
  int racks = 0;
  LinkParams cna_link;     // CNA <-> leaf, Ethernet
  LinkParams fabric_link;  // leaf <-> spine
};

TopologyParams read_topology_params(const TopologyKeys& keys, int spine_ports);

}  // namespace fabric
