#include "platforms/fabric/multicast_groups.h"

#include "config/config.h"

namespace fabric {

MulticastGroups install_multicast_groups(const std::vector<traffic::FlowSpec>& flows, const Geometry& geometry,
                                         const TreeLimits& limits, Fdb& fdb, McbcTable& mcbc) {
  MulticastGroups groups;
  uint32_t next_mid = 0;
  for (const traffic::FlowSpec& f : flows) {
    if (!f.multicast) continue;
    ReplicationTree tree;
    try {
      if (f.tree == "explicit") {
        tree = explicit_tree(f.src, f.explicit_fanout, f.dests, geometry, limits);
      } else if (f.tree == "affinity") {
        tree = build_affinity_tree(f.src, f.dests, geometry, limits);
      } else {
        tree = build_generic_tree(f.src, f.dests, geometry, limits);
      }
    } catch (const TreeError& e) {
      if (f.tree == "explicit")
        throw config::ConfigError("flow." + f.name + ".explicit_tree", f.explicit_tree,
                                  std::string("a legal tree for group ") + f.name + ": " + e.what());
      std::string group;
      for (PortId p : f.dests) group += (group.empty() ? "" : ",") + std::to_string(raw(p));
      throw config::ConfigError("flow." + f.name + ".dst", group,
                                "a group the " + f.tree + " replication tree can reach: " + std::string(e.what()));
    }
    const Mid mid = Mid(next_mid++);
    fdb.learn_group(group_mac(mid), mid);
    for (const auto& [port, targets] : tree.fanout) mcbc.set(PortId(port), mid, targets);
    groups.macs[raw(f.id)] = group_mac(mid);
    groups.trees[raw(f.id)] = std::move(tree);
  }
  return groups;
}

}  // namespace fabric
