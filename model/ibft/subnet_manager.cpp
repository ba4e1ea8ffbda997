#include "model/ibft/subnet_manager.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

namespace fabric {

SubnetManager::SubnetManager(const IbftTopology& topology) : t_(topology) {
  paths_ = 1;
  for (int i = 1; i < t_.n() && paths_ <= (1 << kMaxLmc); ++i) paths_ *= t_.half();
  lmc_ = 0;
  while ((1 << lmc_) < paths_) ++lmc_;
  lids_per_node_ = 1 << lmc_;
  if (lmc_ > kMaxLmc) throw std::invalid_argument("IBFT(m, n): (m/2)^(n-1) paths need an LMC above 7");
  if (static_cast<int64_t>(t_.nodes()) * lids_per_node_ > kLastUnicastLid)
    throw std::invalid_argument("IBFT(m, n): more LIDs than InfiniBand's unicast space (0x0001-0xBFFF)");
}

int SubnetManager::common_prefix(int a, int b) const {
  const Digits da = t_.node_digits(a), db = t_.node_digits(b);
  int l = 0;
  while (l < t_.n() && da[static_cast<size_t>(l)] == db[static_cast<size_t>(l)]) ++l;
  return l;
}

int SubnetManager::rank(int pid, int from) const {
  const Digits d = t_.node_digits(pid);
  int v = 0;
  for (int i = from; i < t_.n(); ++i) v = v * t_.half() + d[static_cast<size_t>(i)];
  return v;
}

int SubnetManager::cyclic_lid(int source, int destination) const {
  const int l = common_prefix(source, destination);
  return base_lid(destination) + (l + 1 < t_.n() ? rank(source, l + 1) : 0);
}

int SubnetManager::out_port(int sw, int lid) const {
  const int l = t_.level(sw);
  const Digits& w = t_.label(sw);
  const Digits p = t_.node_digits(owner_of(lid));
  if (std::equal(w.begin(), w.begin() + l, p.begin())) return p[static_cast<size_t>(l)] + 1;
  // The path's digit for this level: the spec's floor((lid - 1) /
  // (m/2)^(n-1-l)) mod (m/2), taken of the LID's offset within its node's
  // range so that it also holds when 2^LMC exceeds (m/2)^(n-1).
  int below = 1;
  for (int i = 0; i < t_.n() - 1 - l; ++i) below *= t_.half();
  return (lid - 1) % lids_per_node_ / below % t_.half() + t_.half() + 1;
}

std::vector<SubnetManager::Hop> SubnetManager::route(int source, int lid) const {
  std::vector<Hop> hops;
  int sw = t_.leaf_of(source);
  for (int guard = 0; guard <= 2 * t_.n(); ++guard) {
    const int port = out_port(sw, lid);
    hops.push_back({sw, port});
    const IbftTopology::Peer& next = t_.peer(sw, port);
    if (next.kind != IbftTopology::Peer::Kind::sw) return hops;
    sw = next.index;
  }
  throw std::logic_error("IBFT linear forwarding: a route longer than the tree is high");
}

SubnetManager::McTable SubnetManager::cyclic_tree(int source, const std::vector<int>& members) const {
  McTable table(static_cast<size_t>(t_.switches()), 0);
  for (int member : members) {
    if (member == source) continue;  // a source does not receive its own packet
    for (const Hop& h : route(source, cyclic_lid(source, member)))
      table[static_cast<size_t>(h.sw)] |= PortSet{1} << h.port;
  }
  return table;
}

std::vector<int> SubnetManager::hops_from_switch(int sw) const {
  std::vector<int> hops(static_cast<size_t>(t_.switches()), std::numeric_limits<int>::max());
  std::deque<int> queue{sw};
  hops[static_cast<size_t>(sw)] = 0;
  while (!queue.empty()) {
    const int s = queue.front();
    queue.pop_front();
    for (int port = 1; port <= t_.m(); ++port) {
      const IbftTopology::Peer& p = t_.peer(s, port);
      if (p.kind != IbftTopology::Peer::Kind::sw ||
          hops[static_cast<size_t>(p.index)] <= hops[static_cast<size_t>(s)] + 1)
        continue;
      hops[static_cast<size_t>(p.index)] = hops[static_cast<size_t>(s)] + 1;
      queue.push_back(p.index);
    }
  }
  return hops;
}

int SubnetManager::hops_to_node(int, int pid, const std::vector<int>& switch_hops) const {
  return switch_hops[static_cast<size_t>(t_.leaf_of(pid))] + 1;
}

std::vector<int> SubnetManager::opensm_root_candidates(const std::vector<int>& nodes) const {
  std::vector<int> tied;
  int best = std::numeric_limits<int>::max();
  for (int s = 0; s < t_.switches(); ++s) {  // switches are numbered top level first, then by label
    const std::vector<int> hops = hops_from_switch(s);
    int worst = 0;
    for (int node : nodes) worst = std::max(worst, hops_to_node(s, node, hops));
    if (worst < best) {
      best = worst;
      tied.clear();
    }
    if (worst == best) tied.push_back(s);
  }
  return tied;
}

int SubnetManager::opensm_root(const std::vector<int>& nodes, OpenSmRoot rule, int mlid) const {
  const std::vector<int> tied = opensm_root_candidates(nodes);
  if (tied.empty()) return -1;
  if (rule == OpenSmRoot::first) return tied.front();
  return tied[static_cast<size_t>(mlid) % tied.size()];
}

SubnetManager::McTable SubnetManager::opensm_tree(const std::vector<int>& members, const std::vector<int>& send_only,
                                                  OpenSmRoot rule, int mlid, int* root_out) const {
  std::vector<int> all = members;
  for (int s : send_only)
    if (std::find(members.begin(), members.end(), s) == members.end()) all.push_back(s);
  const int root = opensm_root(all, rule, mlid);
  if (root_out) *root_out = root;
  McTable table(static_cast<size_t>(t_.switches()), 0);
  if (root < 0) return table;
  // Hop counts to each member's leaf switch, from every switch, for the
  // least-hop choice at each step.
  for (int member : all) {
    const int leaf = t_.leaf_of(member);
    const std::vector<int> to_leaf = hops_from_switch(leaf);  // symmetric: distance switch <-> leaf
    int sw = root;
    while (sw != leaf) {
      int chosen = -1;
      for (int port = 1; port <= t_.m() && chosen < 0; ++port) {
        const IbftTopology::Peer& p = t_.peer(sw, port);
        if (p.kind == IbftTopology::Peer::Kind::sw &&
            to_leaf[static_cast<size_t>(p.index)] == to_leaf[static_cast<size_t>(sw)] - 1)
          chosen = port;
      }
      const IbftTopology::Peer& next = t_.peer(sw, chosen);
      table[static_cast<size_t>(sw)] |= PortSet{1} << chosen;
      table[static_cast<size_t>(next.index)] |= PortSet{1} << next.port;  // the way back up is a tree port too
      sw = next.index;
    }
    if (std::find(members.begin(), members.end(), member) != members.end())
      table[static_cast<size_t>(leaf)] |= PortSet{1} << t_.leaf_port_of(member);
  }
  return table;
}

}  // namespace fabric
