#pragma once
// Checks a multicast tree of an IBFT (platforms.md, E13) by forwarding one
// packet from its source through the switches' entries, as the switches
// would: every member must be reached exactly once, nothing else reached,
// no switch twice (no loop); with the cyclic scheme's rule, no copy may be
// made on the way up: an entry sends a packet up one port at most (the
// climb is one path; a packet going up may branch down, as at the source's
// leaf to a neighbour, but two copies going up would meet members twice).
#include <string>
#include <vector>

#include "model/ibft/ibft_topology.h"
#include "model/ibft/subnet_manager.h"

namespace fabric {

struct TreeCheck {
  bool ok = true;
  std::string problem;          // the first one found, naming the switch or node
  std::vector<int> deliveries;  // by PID
  int copies = 0;               // packets sent on switch ports
};

enum class TreeForwarding {
  every_port,       // the cyclic scheme: every port of the entry
  all_but_arrival,  // OpenSM's shared tree: every port but the one it came in on
};

TreeCheck check_tree(const IbftTopology& topology, const SubnetManager::McTable& table, int source,
                     const std::vector<int>& members, TreeForwarding forwarding, bool forbid_copies_going_up);

}  // namespace fabric
