#pragma once
// Who is where on one ring (platforms.md, E14), plain C++: its positions
// (host stations and bridge controllers) and, per group, the positions a
// frame of the group must reach on this ring: its members here and the
// bridge controllers towards its members on other rings. A ticket's map has
// a bit for each; a data packet or a retract leaves the ring at the last one
// downstream of the position that put it on the ring.
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

  explicit RingLayout(int positions, int groups);
  // One ring whose positions are the global station ids.
  static RingLayout single_ring(int stations, const std::vector<RingGroup>& groups);

  void add_destination(int group, int position);
  int positions() const { return positions_; }
  // The group's destinations on this ring but `except` (bit per position).
  uint32_t destinations(int group, int except) const;
  // The last destination downstream of `from` (`from` itself if none).
  int last_destination(int from, int group) const;

 private:
  int positions_;
  std::vector<uint32_t> destinations_;  // by group
};

}  // namespace fabric::ring
