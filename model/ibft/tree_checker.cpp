#include "model/ibft/tree_checker.h"

#include <algorithm>
#include <deque>

namespace fabric {

TreeCheck check_tree(const IbftTopology& t, const SubnetManager::McTable& table, int source,
                     const std::vector<int>& members, TreeForwarding forwarding, bool forbid_copies_going_up) {
  TreeCheck c;
  c.deliveries.assign(static_cast<size_t>(t.nodes()), 0);
  std::vector<int> visits(static_cast<size_t>(t.switches()), 0);
  const auto fail = [&c](std::string problem) {
    if (c.ok) c.problem = std::move(problem);
    c.ok = false;
  };
  struct Arrival {
    int sw, port;
  };
  std::deque<Arrival> pending{{t.leaf_of(source), t.leaf_port_of(source)}};
  while (!pending.empty() && c.ok) {
    const Arrival a = pending.front();
    pending.pop_front();
    if (++visits[static_cast<size_t>(a.sw)] > 1) {
      fail(t.switch_name(a.sw) + " is reached twice (a loop, or two copies)");
      break;
    }
    PortSet out = table[static_cast<size_t>(a.sw)];
    if (forwarding == TreeForwarding::all_but_arrival) out &= ~(PortSet{1} << a.port);
    int up = 0;
    for (int port = 1; port <= t.m(); ++port) {
      if (!(out >> port & 1)) continue;
      ++c.copies;
      if (!t.is_down_port(a.sw, port)) ++up;
      const IbftTopology::Peer& p = t.peer(a.sw, port);
      if (p.kind == IbftTopology::Peer::Kind::sw) {
        pending.push_back({p.index, p.port});
      } else if (p.kind == IbftTopology::Peer::Kind::node) {
        ++c.deliveries[static_cast<size_t>(p.index)];
      } else {
        fail(t.switch_name(a.sw) + " port " + std::to_string(port) + " leads nowhere");
      }
    }
    if (forbid_copies_going_up && up > 1)
      fail(t.switch_name(a.sw) + " makes a copy on the way up (" + std::to_string(up) + " up ports)");
  }
  for (int p = 0; p < t.nodes() && c.ok; ++p) {
    const bool member = std::find(members.begin(), members.end(), p) != members.end() && p != source;
    const int got = c.deliveries[static_cast<size_t>(p)];
    if (member && got != 1) fail(t.node_name(p) + " receives " + std::to_string(got) + " copies, not 1");
    if (!member && got != 0) fail(t.node_name(p) + " is not a member but receives " + std::to_string(got));
  }
  return c;
}

}  // namespace fabric
