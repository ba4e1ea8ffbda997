#include "model/ring/ring_network.h"

#include <stdexcept>
#include <string>

namespace fabric::ring {

namespace {

bool in_subtree(int ring, int root) {
  while (ring > root) ring = (ring - 1) / 2;
  return ring == root;
}

// Whether ring r of `rings` is in the list (an empty list: every ring).
std::vector<bool> ring_set(const std::vector<int>& list, int rings, const char* what) {
  std::vector<bool> in(static_cast<size_t>(rings), list.empty());
  for (const int r : list) {
    if (r < 0 || r >= rings)
      throw std::invalid_argument(std::string("ring: ") + what + " names ring " + std::to_string(r) + " of " +
                                  std::to_string(rings));
    in[static_cast<size_t>(r)] = true;
  }
  return in;
}

// A group's rings are joined among themselves: every one but the highest in
// the tree hangs from another of them.
bool joined(const std::vector<bool>& on) {
  int tops = 0;
  for (size_t r = 0; r < on.size(); ++r)
    if (on[r] && (r == 0 || !on[(r - 1) / 2])) ++tops;
  return tops == 1;
}

}  // namespace

int bridges_on_ring(int rings, int r) {
  int n = r > 0 ? 1 : 0;
  for (int c = 2 * r + 1; c <= 2 * r + 2; ++c)
    if (c < rings) ++n;
  return n;
}

RingNetwork build_ring_network(const RingPlacement& at) {
  const int rings = at.rings, stations = at.stations, group_count = at.group_count, group_size = at.group_size;
  if (rings < 1) throw std::invalid_argument("ring: at least one ring");
  if (group_count * group_size > stations) throw std::invalid_argument("ring: the groups do not fit on a ring");
  if (!at.group_rings.empty() && static_cast<int>(at.group_rings.size()) != group_count)
    throw std::invalid_argument("ring: " + std::to_string(at.group_rings.size()) + " lists of rings for " +
                                std::to_string(group_count) + " groups");
  const std::vector<bool> sending = ring_set(at.sender_rings, rings, "the sending rings");
  // on[g][r]: group g has its block on ring r.
  std::vector<std::vector<bool>> on;
  for (int g = 0; g < group_count; ++g) {
    on.push_back(ring_set(at.group_rings.empty() ? std::vector<int>{} : at.group_rings[static_cast<size_t>(g)], rings,
                          "a group's rings"));
    if (!joined(on.back()))
      throw std::invalid_argument("ring: group " + std::to_string(g) +
                                  "'s rings are not joined among themselves (ring r > 0 hangs from (r - 1) / 2)");
  }
  RingNetwork n;
  n.rings = rings;
  n.stations = stations;
  for (int g = 0; g < group_count; ++g) {
    RingGroup group;
    group.id = g;
    for (int r = 0; r < rings; ++r) {
      if (!on[static_cast<size_t>(g)][static_cast<size_t>(r)]) continue;
      for (int i = 0; i < group_size; ++i) {
        const int host = r * stations + g * group_size + i;
        group.members.push_back(host);
        if (sending[static_cast<size_t>(r)] && (at.every_member_sends || group.senders.empty()))
          group.senders.push_back(host);
      }
    }
    if (group.senders.empty())
      throw std::invalid_argument("ring: group " + std::to_string(g) + " has no member on a sending ring");
    n.groups.push_back(group);
  }
  // Whether group g has members among the hosts `beyond`.
  const auto reaches = [&](int g, const std::vector<bool>& beyond) {
    for (const int m : n.groups[static_cast<size_t>(g)].members)
      if (beyond[static_cast<size_t>(m)]) return true;
    return false;
  };
  n.bridges.resize(static_cast<size_t>(rings - 1));
  for (int r = 0; r < rings; ++r) {
    std::vector<RingNetwork::Position> pos;
    for (int i = 0; i < stations; ++i) pos.push_back({false, r * stations + i, 0});
    if (r > 0) pos.push_back({true, r - 1, 1});  // towards the parent
    for (int c = 2 * r + 1; c <= 2 * r + 2; ++c)
      if (c < rings) pos.push_back({true, c - 1, 0});
    const int positions = static_cast<int>(pos.size());
    if (positions > RingLayout::kMaxPositions)
      throw std::invalid_argument("ring: " + std::to_string(positions) + " positions on ring " + std::to_string(r) +
                                  " (stations and bridge controllers): at most 32");
    // What each bridge controller here reaches through its other side.
    std::vector<std::vector<bool>> beyond(pos.size());
    for (int p = 0; p < positions; ++p) {
      const RingNetwork::Position& c = pos[static_cast<size_t>(p)];
      if (!c.bridge) continue;
      const int child = c.id + 1;
      beyond[static_cast<size_t>(p)].assign(static_cast<size_t>(rings * stations), false);
      for (int h = 0; h < rings * stations; ++h) {
        const bool below = in_subtree(h / stations, child);
        beyond[static_cast<size_t>(p)][static_cast<size_t>(h)] = c.side == 0 ? below : !below;  // side 0 looks down
      }
    }
    RingLayout layout(positions, group_count);
    for (int p = 0; p < positions; ++p) {
      const RingNetwork::Position& c = pos[static_cast<size_t>(p)];
      for (int g = 0; g < group_count; ++g) {
        if (c.bridge) {
          if (on[static_cast<size_t>(g)][static_cast<size_t>(r)] && reaches(g, beyond[static_cast<size_t>(p)]))
            layout.add_bridge(g, p);  // towards members of the group on other rings
        } else if (on[static_cast<size_t>(g)][static_cast<size_t>(r)] && c.id % stations / group_size == g &&
                   c.id % stations < group_count * group_size) {
          layout.add_destination(g, p);
        }
      }
    }
    for (int p = 0; p < positions; ++p) {
      const RingNetwork::Position& c = pos[static_cast<size_t>(p)];
      if (!c.bridge) continue;
      RingNetwork::Bridge& b = n.bridges[static_cast<size_t>(c.id)];
      const int child = c.id + 1;
      b.parent = (child - 1) / 2;
      b.child = child;
      b.sides[c.side] = {p, layout, beyond[static_cast<size_t>(p)]};
    }
    n.layouts.push_back(layout);
    n.positions.push_back(pos);
  }
  return n;
}

}  // namespace fabric::ring
