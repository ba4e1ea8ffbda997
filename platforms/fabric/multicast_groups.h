#pragma once
// Multicast groups from the configured flows: one MID per distinct group
// (destination set), its group MAC learned in the FDB, and an MCBC entry at
// each source port that sends to it. Without surrogate trees a source
// port's local fanout set is the whole group.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/leaf/fdb.h"
#include "model/multicast/mcbc_table.h"
#include "traffic/flow_spec.h"

namespace fabric {

// Returns the group MAC of each multicast flow, by flow id.
std::unordered_map<uint32_t, uint64_t> install_multicast_groups(const std::vector<traffic::FlowSpec>& flows, Fdb& fdb,
                                                                McbcTable& mcbc);

}  // namespace fabric
