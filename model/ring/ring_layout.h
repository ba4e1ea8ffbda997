#pragma once
// Who is where on one ring (platforms.md, E14), plain C++: its positions
// (host stations and bridge controllers) and, per group, the positions a
// frame of the group must reach on this ring: its members here and the
// bridge controllers towards its members on other rings. A ticket's map has
// a bit for each; a data packet or a retract leaves the ring at the last one
// downstream of the position that put it on the ring.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fabric::ring {

// A multicast group: its members and its senders, by global station id.
struct RingGroup {
  int id = 0;
  std::vector<int> members;  // ascending
  std::vector<int> senders;  // all members (all-to-all) or the first (one-to-all)
};

class RingLayout {
 public:
  static constexpr int kMaxPositions = 32;  // a ticket's map is 32 bits

  RingLayout() = default;
  explicit RingLayout(int positions, int groups);
  // One ring whose positions are the global station ids.
  static RingLayout single_ring(int stations, const std::vector<RingGroup>& groups);

  void add_destination(int group, int position);
  // A bridge controller towards members of the group on other rings: a
  // destination that also takes the group's vouchers.
  void add_bridge(int group, int position);
  int positions() const { return positions_; }
  // Whether the group has a bridge on this ring (its senders here send vouchers).
  bool has_bridge(int group) const { return group >= 0 && bridges_[static_cast<size_t>(group)] != 0; }
  // The group's destinations on this ring but `except` (bit per position).
  uint32_t destinations(int group, int except) const;
  // The last destination downstream of `from` (`from` itself if none).
  int last_destination(int from, int group) const;

 private:
  int positions_ = 0;
  std::vector<uint32_t> destinations_;  // by group
  std::vector<uint32_t> bridges_;       // by group
};

}  // namespace fabric::ring
