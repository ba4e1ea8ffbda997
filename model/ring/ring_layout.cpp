#include "model/ring/ring_layout.h"

#include <stdexcept>

namespace fabric::ring {

RingLayout::RingLayout(int positions, int groups)
    : positions_(positions), destinations_(static_cast<size_t>(groups), 0), bridges_(static_cast<size_t>(groups), 0) {
  if (positions < 2 || positions > kMaxPositions)
    throw std::invalid_argument("ring: 2 to 32 positions (a ticket's map is 32 bits)");
}

RingLayout RingLayout::single_ring(int stations, const std::vector<RingGroup>& groups) {
  RingLayout layout(stations, static_cast<int>(groups.size()));
  for (const RingGroup& g : groups)
    for (int m : g.members) layout.add_destination(g.id, m);
  return layout;
}

void RingLayout::add_destination(int group, int position) {
  destinations_.at(static_cast<size_t>(group)) |= uint32_t{1} << position;
}

void RingLayout::add_bridge(int group, int position) {
  add_destination(group, position);
  bridges_.at(static_cast<size_t>(group)) |= uint32_t{1} << position;
}

uint32_t RingLayout::destinations(int group, int except) const {
  if (group < 0) return 0;
  return destinations_[static_cast<size_t>(group)] & ~(uint32_t{1} << except);
}

int RingLayout::last_destination(int from, int group) const {
  const uint32_t mask = destinations(group, from);
  int last = from;
  for (int i = 1; i < positions_; ++i) {
    const int p = (from + i) % positions_;
    if (mask >> p & 1) last = p;
  }
  return last;
}

}  // namespace fabric::ring
