#pragma once
// Forwarding database: destination MAC -> target fabric port. CNA MACs are
// locally administered addresses derived from the port id.
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "model/core/ids.h"

namespace fabric {

constexpr uint64_t kLocalMacBase = 0x020000000000ULL;
constexpr uint64_t mac_of(PortId port) { return kLocalMacBase | raw(port); }

class Fdb {
 public:
  void learn(uint64_t mac, PortId port) { table_[mac] = port; }
  std::optional<PortId> lookup(uint64_t mac) const {
    auto it = table_.find(mac);
    if (it == table_.end()) return std::nullopt;
    return it->second;
  }
  size_t size() const { return table_.size(); }

 private:
  std::unordered_map<uint64_t, PortId> table_;
};

}  // namespace fabric
