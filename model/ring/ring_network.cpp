#include "model/ring/ring_network.h"

#include <stdexcept>
#include <string>

namespace fabric::ring {

namespace {

bool in_subtree(int ring, int root) {
  while (ring > root) ring = (ring - 1) / 2;
  return ring == root;
}

}  // namespace

int bridges_on_ring(int rings, int r) {
  int n = r > 0 ? 1 : 0;
  for (int c = 2 * r + 1; c <= 2 * r + 2; ++c)
    if (c < rings) ++n;
  return n;
}

RingNetwork build_ring_network(int rings, int stations, int group_count, int group_size, bool every_member_sends) {
  if (rings < 1) throw std::invalid_argument("ring: at least one ring");
  if (group_count * group_size > stations) throw std::invalid_argument("ring: the groups do not fit on a ring");
  RingNetwork n;
  n.rings = rings;
  n.stations = stations;
  for (int g = 0; g < group_count; ++g) {
    RingGroup group;
    group.id = g;
    for (int r = 0; r < rings; ++r)
      for (int i = 0; i < group_size; ++i) group.members.push_back(r * stations + g * group_size + i);
    group.senders = every_member_sends ? group.members : std::vector<int>{group.members.front()};
    n.groups.push_back(group);
  }
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
    RingLayout layout(positions, group_count);
    for (int p = 0; p < positions; ++p) {
      for (int g = 0; g < group_count; ++g) {
        if (pos[static_cast<size_t>(p)].bridge) {
          layout.add_bridge(g, p);  // every ring has members of every group
        } else if (pos[static_cast<size_t>(p)].id % stations / group_size == g &&
                   pos[static_cast<size_t>(p)].id % stations < group_count * group_size) {
          layout.add_destination(g, p);
        }
      }
    }
    for (int p = 0; p < positions; ++p) {
      const RingNetwork::Position& at = pos[static_cast<size_t>(p)];
      if (!at.bridge) continue;
      RingNetwork::Bridge& b = n.bridges[static_cast<size_t>(at.id)];
      const int child = at.id + 1;
      b.parent = (child - 1) / 2;
      b.child = child;
      std::vector<bool> beyond(static_cast<size_t>(rings * stations), false);
      for (int h = 0; h < rings * stations; ++h) {
        const bool below = in_subtree(h / stations, child);
        beyond[static_cast<size_t>(h)] = at.side == 0 ? below : !below;  // side 0 looks down the tree
      }
      b.sides[at.side] = {p, layout, beyond};
    }
    n.layouts.push_back(layout);
    n.positions.push_back(pos);
  }
  return n;
}

}  // namespace fabric::ring
