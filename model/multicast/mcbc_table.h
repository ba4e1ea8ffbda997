#pragma once
// The MCBC tables: for each port and multicast id, the port's local fanout
// set f(x), the target ports it sends one copy each to (at most 8 at a 100G
// port). The platform fills them from the configured groups.
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "model/core/ids.h"

namespace fabric {

constexpr size_t kMaxLocalFanout = 8;

class McbcTable {
 public:
  void set(PortId port, Mid mid, std::vector<PortId> targets) {
    if (targets.empty() || targets.size() > kMaxLocalFanout)
      throw std::invalid_argument("MCBC: a local fanout set holds 1 to 8 targets");
    table_[key(port, mid)] = std::move(targets);
  }
  // The fanout set, or nullptr when the port has none for this MID.
  const std::vector<PortId>* lookup(PortId port, Mid mid) const {
    auto it = table_.find(key(port, mid));
    return it == table_.end() ? nullptr : &it->second;
  }

 private:
  static uint64_t key(PortId port, Mid mid) { return (uint64_t{raw(port)} << 32) | raw(mid); }
  std::unordered_map<uint64_t, std::vector<PortId>> table_;
};

}  // namespace fabric
