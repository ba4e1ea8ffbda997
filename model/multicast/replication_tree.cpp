#include "model/multicast/replication_tree.h"

#include <algorithm>
#include <deque>
#include <set>

namespace fabric {

namespace {

bool is_surrogate(PortId p, const Geometry& g) {
  return raw(p) >= static_cast<uint32_t>(g.user_ports()) &&
         raw(p) < static_cast<uint32_t>(g.user_ports() + g.leaves);
}

LeafId leaf_of_any(PortId p, const Geometry& g) {
  return is_surrogate(p, g) ? LeafId(raw(p) - g.user_ports()) : g.leaf_of(p);
}

std::string port_name(PortId p) { return "port " + std::to_string(raw(p)); }

}  // namespace

uint64_t tree_reach(int levels, size_t source_local, size_t surrogate_local, size_t max_fanout) {
  uint64_t reach = source_local;
  uint64_t surrogates = max_fanout - source_local;  // at level 1
  for (int level = 1; level <= levels; ++level) {
    reach += surrogates * surrogate_local;
    surrogates *= max_fanout - surrogate_local;
  }
  return reach;
}

ReplicationTree build_generic_tree(PortId source, const std::vector<PortId>& destinations, const Geometry& g,
                                   const TreeLimits& limits) {
  ReplicationTree tree;
  tree.source = source;
  const LeafId source_leaf = g.leaf_of(source);
  std::map<uint32_t, std::vector<PortId>> by_leaf;  // remote leaves, in id order
  std::vector<PortId>& root = tree.fanout[raw(source)];
  std::set<uint32_t> seen;
  for (PortId d : destinations) {
    if (raw(d) >= static_cast<uint32_t>(g.user_ports()) || d == source || !seen.insert(raw(d)).second)
      throw TreeError("destination " + port_name(d) + " is not a user port other than the source, or repeats");
    if (g.leaf_of(d) == source_leaf) {
      root.push_back(d);
    } else {
      by_leaf[raw(g.leaf_of(d))].push_back(d);
    }
  }
  if (root.size() > limits.max_fanout)
    throw TreeError("the source's leaf holds " + std::to_string(root.size()) + " destinations, above the fanout of " +
                    std::to_string(limits.max_fanout));
  // Leaves with the most destinations first: they leave the least room below.
  std::vector<std::pair<uint32_t, std::vector<PortId>>> leaves(by_leaf.begin(), by_leaf.end());
  std::stable_sort(leaves.begin(), leaves.end(), [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });

  struct Node {
    uint32_t port;
    int level;
  };
  std::deque<Node> open{{raw(source), 0}};  // replicating ports with room, shallowest first
  for (const auto& [leaf, ports] : leaves) {
    auto full = [&](const Node& n) {
    const size_t cap = n.level == 0 ? std::min(limits.max_fanout, limits.max_source_fanout) : limits.max_fanout;
    return tree.fanout[n.port].size() >= cap;
  };
  while (!open.empty() && (full(open.front()) ||
                             open.front().level >= limits.max_levels))
      open.pop_front();
    if (open.empty())
      throw TreeError("a group of " + std::to_string(destinations.size()) + " ports over " +
                      std::to_string(leaves.size()) + " other leaves needs more than " +
                      std::to_string(limits.max_levels) + " surrogate levels at fanout " +
                      std::to_string(limits.max_fanout));
    const Node parent = open.front();
    const PortId surrogate = g.surrogate_port(LeafId(leaf));
    tree.fanout[parent.port].push_back(surrogate);
    tree.fanout[raw(surrogate)] = ports;  // it serves its own leaf's destinations
    tree.level[raw(surrogate)] = parent.level + 1;
    open.push_back({raw(surrogate), parent.level + 1});
  }
  // A surrogate that serves one destination and feeds nobody is a detour:
  // send that copy straight to the port.
  for (auto it = tree.level.begin(); it != tree.level.end();) {
    std::vector<PortId>& own = tree.fanout[it->first];
    if (own.size() == 1 && !is_surrogate(own[0], g)) {
      const PortId direct = own[0];
      for (auto& [port, targets] : tree.fanout)
        std::replace(targets.begin(), targets.end(), PortId(it->first), direct);
      tree.fanout.erase(it->first);
      it = tree.level.erase(it);
    } else {
      ++it;
    }
  }
  if (root.empty()) tree.fanout.erase(raw(source));
  check_tree(tree, destinations, g, limits);
  return tree;
}

void check_tree(const ReplicationTree& tree, const std::vector<PortId>& destinations, const Geometry& g,
                const TreeLimits& limits) {
  std::set<uint32_t> wanted;
  for (PortId d : destinations) wanted.insert(raw(d));
  std::set<uint32_t> reached, leaves_entered, visited{raw(tree.source)};
  struct Step {
    PortId port;
    int level;
  };
  std::deque<Step> todo{{tree.source, 0}};
  for (const auto& [port, targets] : tree.fanout)
    if (PortId(port) != tree.source && !is_surrogate(PortId(port), g))
      throw TreeError(port_name(PortId(port)) + " replicates but is not a surrogate port");
  while (!todo.empty()) {
    const Step s = todo.front();
    todo.pop_front();
    const auto it = tree.fanout.find(raw(s.port));
    if (it == tree.fanout.end()) continue;
    if (it->second.size() > limits.max_fanout)
      throw TreeError(port_name(s.port) + " has a local fanout of " + std::to_string(it->second.size()) +
                      ", above " + std::to_string(limits.max_fanout));
    const LeafId here = leaf_of_any(s.port, g);
    for (PortId t : it->second) {
      const LeafId there = leaf_of_any(t, g);
      if (is_surrogate(t, g)) {
        if (!visited.insert(raw(t)).second) throw TreeError(port_name(t) + " is reached twice: the tree has a loop");
        if (s.level + 1 > limits.max_levels)
          throw TreeError(port_name(t) + " sits at surrogate level " + std::to_string(s.level + 1) + ", above " +
                          std::to_string(limits.max_levels));
        todo.push_back({t, s.level + 1});
      } else {
        if (raw(t) >= static_cast<uint32_t>(g.user_ports())) throw TreeError(port_name(t) + " does not exist");
        if (!wanted.count(raw(t))) throw TreeError(port_name(t) + " is not a destination of the group");
        if (!reached.insert(raw(t)).second) throw TreeError(port_name(t) + " is reached twice");
      }
      // A copy that crosses into another leaf enters it; a leaf is entered once.
      if (there != here && !leaves_entered.insert(raw(there)).second)
        throw TreeError("leaf " + std::to_string(raw(there)) + " is entered twice");
    }
  }
  for (uint32_t d : wanted)
    if (!reached.count(d)) throw TreeError(port_name(PortId(d)) + " is a destination the tree does not reach");
  for (const auto& [port, targets] : tree.fanout)
    if (!visited.count(port)) throw TreeError(port_name(PortId(port)) + " replicates but nothing feeds it");
}

}  // namespace fabric
