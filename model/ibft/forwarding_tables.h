#pragma once
// The forwarding state the subnet manager installs in every switch of an
// IBFT (platforms.md, E13): a linear forwarding table per switch (an output
// port per LID) and one multicast entry per switch and group. Plain C++.
#include <cstdint>
#include <vector>

#include "model/ibft/subnet_manager.h"

namespace fabric {

// Multicast LIDs start here, as in InfiniBand; group g has LID kFirstMulticastLid + g.
constexpr int kFirstMulticastLid = 0xC000;

class ForwardingTables {
 public:
  explicit ForwardingTables(const SubnetManager& sm, const IbftTopology& topology);
  int out_port(int sw, int lid) const { return lft_[static_cast<size_t>(sw)][static_cast<size_t>(lid)]; }
  // Install a group's entries (a SubnetManager::McTable); returns its index.
  int add_group(const SubnetManager::McTable& table);
  PortSet entry(int sw, int group) const { return mc_[static_cast<size_t>(group)][static_cast<size_t>(sw)]; }
  int groups() const { return static_cast<int>(mc_.size()); }

 private:
  std::vector<std::vector<uint8_t>> lft_;   // by switch, by LID
  std::vector<SubnetManager::McTable> mc_;  // by group, by switch
};

}  // namespace fabric
