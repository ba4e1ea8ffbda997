#include "platforms/fabric/multicast_groups.h"

#include <algorithm>
#include <map>

namespace fabric {

std::unordered_map<uint32_t, uint64_t> install_multicast_groups(const std::vector<traffic::FlowSpec>& flows, Fdb& fdb,
                                                                McbcTable& mcbc) {
  std::map<std::vector<uint32_t>, Mid> mids;  // by sorted member list
  std::unordered_map<uint32_t, uint64_t> macs;
  for (const traffic::FlowSpec& f : flows) {
    if (!f.multicast) continue;
    std::vector<uint32_t> members;
    for (PortId p : f.dests) members.push_back(raw(p));
    std::sort(members.begin(), members.end());
    const auto [it, added] = mids.try_emplace(members, Mid(static_cast<uint32_t>(mids.size())));
    const Mid mid = it->second;
    if (added) fdb.learn_group(group_mac(mid), mid);
    mcbc.set(f.src, mid, f.dests);  // copies in the configured order: d1 first
    macs[raw(f.id)] = group_mac(mid);
  }
  return macs;
}

}  // namespace fabric
