#pragma once
// Where a port lives: global user port id = leaf * user_ports_per_leaf + local
// index; the surrogate of leaf L is user_ports + L. Leaf ids are ordered rack,
// chassis, CIE, leaf, so topological affinity shows in the id.
#include "model/core/ids.h"

namespace fabric {

struct Geometry {
  int leaves = 128;
  int spines = 32;
  int user_ports_per_leaf = 5;
  int leaves_per_cie = 4;
  int cies_per_chassis = 4;
  int chassis_per_rack = 2;

  int user_ports() const { return leaves * user_ports_per_leaf; }
  bool is_surrogate(PortId p) const { return raw(p) >= static_cast<uint32_t>(user_ports()); }
  LeafId leaf_of(PortId p) const {
    return is_surrogate(p) ? LeafId(raw(p) - user_ports()) : LeafId(raw(p) / user_ports_per_leaf);
  }
  // A port's index in its leaf: 0 .. user_ports_per_leaf - 1 for user
  // ports, user_ports_per_leaf for the surrogate.
  int local_index(PortId p) const {
    return is_surrogate(p) ? user_ports_per_leaf : static_cast<int>(raw(p) % user_ports_per_leaf);
  }
  PortId user_port(LeafId leaf, int index) const { return PortId(raw(leaf) * user_ports_per_leaf + index); }
  PortId surrogate_port(LeafId leaf) const { return PortId(user_ports() + raw(leaf)); }
  int leaves_per_rack() const { return leaves_per_cie * cies_per_chassis * chassis_per_rack; }
  int rack_of(LeafId l) const { return static_cast<int>(raw(l)) / leaves_per_rack(); }
  int chassis_of(LeafId l) const { return static_cast<int>(raw(l)) / (leaves_per_cie * cies_per_chassis); }
  int cie_of(LeafId l) const { return static_cast<int>(raw(l)) / leaves_per_cie; }
};

}  // namespace fabric
