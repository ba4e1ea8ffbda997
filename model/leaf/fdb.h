#pragma once
// Forwarding database: destination MAC -> a unicast target fabric port, or a
// multicast id (MID) that indexes the MCBC tables. CNA MACs are locally
// administered addresses derived from the port id; group MACs are multicast
// addresses derived from the MID.
#include <cstdint>
#include <unordered_map>

#include "model/core/ids.h"

namespace fabric {

constexpr uint64_t kLocalMacBase = 0x020000000000ULL;
constexpr uint64_t kGroupMacBase = 0x01005E000000ULL;
constexpr uint64_t mac_of(PortId port) { return kLocalMacBase | raw(port); }
constexpr uint64_t group_mac(Mid mid) { return kGroupMacBase | raw(mid); }
// Whether a MAC is a CNA's (a unicast destination), and whose.
constexpr bool is_cna_mac(uint64_t mac) { return (mac & ~uint64_t{0xFFFFFFFF}) == kLocalMacBase; }
constexpr PortId port_of_mac(uint64_t mac) { return PortId(static_cast<uint32_t>(mac & 0xFFFFFFFF)); }

struct FdbEntry {
  enum Kind : uint8_t { unknown, unicast, multicast } kind = unknown;
  PortId target{};  // unicast
  Mid mid{};        // multicast
};

class Fdb {
 public:
  void learn(uint64_t mac, PortId port) { table_[mac] = FdbEntry{FdbEntry::unicast, port, Mid(0)}; }
  void learn_group(uint64_t mac, Mid mid) { table_[mac] = FdbEntry{FdbEntry::multicast, PortId(0), mid}; }
  FdbEntry lookup(uint64_t mac) const {
    auto it = table_.find(mac);
    return it == table_.end() ? FdbEntry{} : it->second;
  }
  size_t size() const { return table_.size(); }

 private:
  std::unordered_map<uint64_t, FdbEntry> table_;
};

}  // namespace fabric
