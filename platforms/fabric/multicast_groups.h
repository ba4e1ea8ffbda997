#pragma once
// Multicast groups from the configured flows: a replication tree per
// multicast flow (build_generic_tree: the source's own leaf served by the
// source, every other leaf entered once, through its surrogate port when it
// holds more than one destination), one MID per flow, the group MAC learned
// in the FDB, and the MCBC entries of the source port and of every surrogate
// port on the tree.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/core/geometry.h"
#include "model/leaf/fdb.h"
#include "model/multicast/mcbc_table.h"
#include "model/multicast/replication_tree.h"
#include "traffic/flow_spec.h"

namespace fabric {

struct MulticastGroups {
  std::unordered_map<uint32_t, uint64_t> macs;          // the group MAC of each multicast flow, by flow id
  std::unordered_map<uint32_t, ReplicationTree> trees;  // its replication tree, by flow id
};

// Throws config::ConfigError naming the flow's `dst` key when no legal tree
// exists.
MulticastGroups install_multicast_groups(const std::vector<traffic::FlowSpec>& flows, const Geometry& geometry,
                                         const TreeLimits& limits, Fdb& fdb, McbcTable& mcbc);

}  // namespace fabric
