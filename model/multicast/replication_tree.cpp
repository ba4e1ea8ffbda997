#include "model/multicast/replication_tree.h"

#include <algorithm>
#include <deque>
#include <set>

namespace fabric {

namespace {

// splitmix64's finaliser: a fixed, well-spread function of its input.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A group's identity, independent of the order its destinations are listed in.
uint64_t group_hash(PortId source, const std::vector<PortId>& destinations) {
  std::vector<uint32_t> sorted;
  sorted.reserve(destinations.size());
  for (PortId d : destinations) sorted.push_back(raw(d));
  std::sort(sorted.begin(), sorted.end());
  uint64_t h = mix(raw(source));
  for (uint32_t d : sorted) h = mix(h ^ d);
  return h;
}

bool is_surrogate(PortId p, const Geometry& g) {
  return raw(p) >= static_cast<uint32_t>(g.user_ports()) && raw(p) < static_cast<uint32_t>(g.user_ports() + g.leaves);
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

namespace {

// Replaces surrogates that serve a single destination and feed nobody by a
// direct copy, and drops surrogates that serve and feed nothing.
void simplify(ReplicationTree& tree, const Geometry& g) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = tree.level.begin(); it != tree.level.end();) {
      std::vector<PortId>& own = tree.fanout[it->first];
      const bool empty = own.empty();
      const bool single = own.size() == 1 && !is_surrogate(own[0], g);
      if (!empty && !single) {
        ++it;
        continue;
      }
      const PortId me = PortId(it->first);
      for (auto& [port, targets] : tree.fanout) {
        auto pos = std::find(targets.begin(), targets.end(), me);
        if (pos == targets.end()) continue;
        if (single) {
          *pos = own[0];
        } else {
          targets.erase(pos);
        }
      }
      tree.fanout.erase(it->first);
      it = tree.level.erase(it);
      changed = true;
    }
  }
  for (auto it = tree.fanout.begin(); it != tree.fanout.end();)
    it = it->second.empty() ? tree.fanout.erase(it) : std::next(it);
}

}  // namespace

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
  // Among equals, leaf id order or the group's own order (TreeLimits::leaf_order).
  std::vector<std::pair<uint32_t, std::vector<PortId>>> leaves(by_leaf.begin(), by_leaf.end());
  if (limits.leaf_order == LeafOrder::spread) {
    const uint64_t group = group_hash(source, destinations);
    std::stable_sort(leaves.begin(), leaves.end(),
                     [group](const auto& a, const auto& b) { return mix(group ^ a.first) < mix(group ^ b.first); });
  }
  std::stable_sort(leaves.begin(), leaves.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });

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
    while (!open.empty() && (full(open.front()) || open.front().level >= limits.max_levels)) open.pop_front();
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
  simplify(tree, g);
  check_tree(tree, destinations, g, limits);
  return tree;
}

ReplicationTree build_affinity_tree(PortId source, const std::vector<PortId>& destinations, const Geometry& g,
                                    const TreeLimits& limits) {
  std::set<uint32_t> wanted;
  for (PortId d : destinations) {
    if (raw(d) >= static_cast<uint32_t>(g.user_ports()) || d == source)
      throw TreeError("destination " + port_name(d) + " is not a user port other than the source");
    wanted.insert(raw(d));
  }
  ReplicationTree tree;
  tree.source = source;
  const uint32_t source_leaf = raw(g.leaf_of(source));
  std::vector<bool> used(static_cast<size_t>(g.leaves), false);
  used[source_leaf] = true;
  auto serve = [&](PortId replicating, uint32_t leaf) {  // the leaf's own destinations
    for (int k = 0; k < g.user_ports_per_leaf; ++k) {
      const PortId p = g.user_port(LeafId(leaf), k);
      if (wanted.count(raw(p)) && p != source) tree.fanout[raw(replicating)].push_back(p);
    }
  };
  auto take_leaf = [&](int first, int count) -> int {  // the first unused leaf in [first, first + count)
    for (int l = first; l < first + count && l < g.leaves; ++l)
      if (!used[l]) {
        used[l] = true;
        return l;
      }
    return -1;
  };
  auto attach = [&](PortId parent, int leaf, int level) {
    const PortId s = g.surrogate_port(LeafId(leaf));
    tree.fanout[raw(parent)].push_back(s);
    tree.fanout[raw(s)];
    tree.level[raw(s)] = level;
    serve(s, static_cast<uint32_t>(leaf));
    return s;
  };
  serve(source, source_leaf);
  const int per_cie = g.leaves_per_cie;
  const int cies_per_rack = g.cies_per_chassis * g.chassis_per_rack;
  const int racks = (g.leaves + g.leaves_per_rack() - 1) / g.leaves_per_rack();
  for (int r = 0; r < racks; ++r) {
    const int rack_first = r * g.leaves_per_rack();
    const int rack_leaf = take_leaf(rack_first, g.leaves_per_rack());
    if (rack_leaf < 0) continue;
    const PortId rack_s = attach(source, rack_leaf, 1);
    for (int t = 0; t < cies_per_rack; t += 3) {  // triplets of CIEs
      const int triplet_first = rack_first + t * per_cie;
      const int triplet_leaf = take_leaf(triplet_first, std::min(3, cies_per_rack - t) * per_cie);
      if (triplet_leaf < 0) continue;
      const PortId triplet_s = attach(rack_s, triplet_leaf, 2);
      for (int c = t; c < std::min(t + 3, cies_per_rack); ++c) {
        const int cie_first = rack_first + c * per_cie;
        const int cie_leaf = take_leaf(cie_first, per_cie);
        if (cie_leaf < 0) continue;
        const PortId cie_s = attach(triplet_s, cie_leaf, 3);
        for (int leaf; (leaf = take_leaf(cie_first, per_cie)) >= 0;) attach(cie_s, leaf, 4);
      }
    }
  }
  simplify(tree, g);
  if (!tree.fanout.count(raw(source))) tree.fanout[raw(source)];
  check_tree(tree, destinations, g, limits);
  return tree;
}

ReplicationTree explicit_tree(PortId source, TreeFanout fanout, const std::vector<PortId>& destinations,
                              const Geometry& g, const TreeLimits& limits) {
  ReplicationTree tree;
  tree.source = source;
  tree.fanout = std::move(fanout);
  tree.level = check_tree(tree, destinations, g, limits);
  return tree;
}

std::map<uint32_t, int> check_tree(const ReplicationTree& tree, const std::vector<PortId>& destinations,
                                   const Geometry& g, const TreeLimits& limits) {
  std::set<uint32_t> wanted;
  for (PortId d : destinations) wanted.insert(raw(d));
  std::set<uint32_t> reached, leaves_entered, visited{raw(tree.source)};
  struct Step {
    PortId port;
    int level;
  };
  std::deque<Step> frontier{{tree.source, 0}};
  std::map<uint32_t, int> levels;
  for (const auto& [port, targets] : tree.fanout)
    if (PortId(port) != tree.source && !is_surrogate(PortId(port), g))
      throw TreeError(port_name(PortId(port)) + " replicates but is not a surrogate port");
  while (!frontier.empty()) {
    const Step s = frontier.front();
    frontier.pop_front();
    const auto it = tree.fanout.find(raw(s.port));
    if (it == tree.fanout.end()) continue;
    if (it->second.size() > limits.max_fanout)
      throw TreeError(port_name(s.port) + " has a local fanout of " + std::to_string(it->second.size()) + ", above " +
                      std::to_string(limits.max_fanout));
    const LeafId here = leaf_of_any(s.port, g);
    for (PortId t : it->second) {
      const LeafId there = leaf_of_any(t, g);
      if (is_surrogate(t, g)) {
        if (!visited.insert(raw(t)).second) throw TreeError(port_name(t) + " is reached twice: the tree has a loop");
        if (s.level + 1 > limits.max_levels)
          throw TreeError(port_name(t) + " sits at surrogate level " + std::to_string(s.level + 1) + ", above " +
                          std::to_string(limits.max_levels));
        levels[raw(t)] = s.level + 1;
        frontier.push_back({t, s.level + 1});
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
  return levels;
}

}  // namespace fabric
