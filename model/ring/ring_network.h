#pragma once
// QuickRing rings joined by bridges (platforms.md, E14), plain C++: which
// station or bridge controller is at each position of each ring, each
// ring's layout, the groups, and each bridge's two sides. The rings form a
// binary tree: ring r > 0 hangs from ring (r - 1) / 2 through bridge r - 1.
// Each ring has `stations` host stations (positions 0 .. stations - 1, global
// ids r * stations + position), then its bridge controllers (towards its
// parent first, then its children). A group is the same contiguous block of
// stations on each of its rings (by default every ring; the rings of a
// group must be joined through bridges among themselves); its senders are
// its members on the sending rings (by default every ring), or its first
// such station (one-to-all).
#include <vector>

#include "model/ring/bridge_protocol.h"
#include "model/ring/ring_layout.h"

namespace fabric::ring {

struct RingNetwork {
  struct Position {
    bool bridge = false;
    int id = 0;    // host: its global station id; bridge: the bridge's index
    int side = 0;  // bridge: which side of it
  };
  struct Bridge {
    int parent = 0, child = 0;  // rings: side 0 on the parent's, side 1 on the child's
    BridgeProtocol::Side sides[2];
  };
  int rings = 1;
  int stations = 0;  // host stations a ring
  std::vector<RingGroup> groups;
  std::vector<RingLayout> layouts;               // by ring
  std::vector<std::vector<Position>> positions;  // by ring
  std::vector<Bridge> bridges;

  int hosts() const { return rings * stations; }
  int ring_of(int host) const { return host / stations; }
  int position_of(int host) const { return host % stations; }
};

struct RingPlacement {
  int rings = 1;
  int stations = 0;  // host stations a ring
  int group_count = 0;
  int group_size = 0;  // stations of a group on each of its rings
  // All-to-all (or a schedule that may let any member send); otherwise
  // one-to-all.
  bool every_member_sends = true;
  std::vector<std::vector<int>> group_rings;  // by group, its rings; empty: every group on every ring
  std::vector<int> sender_rings;              // rings whose members send; empty: every ring
};

// Throws std::invalid_argument when a ring would have more than 32
// positions, a group does not fit, a ring named is not there, a group's
// rings are not joined among themselves, or a group has no sender.
RingNetwork build_ring_network(const RingPlacement& placement);
// Every group on every ring, every ring sending.
inline RingNetwork build_ring_network(int rings, int stations, int group_count, int group_size,
                                      bool every_member_sends) {
  return build_ring_network(RingPlacement{rings, stations, group_count, group_size, every_member_sends, {}, {}});
}
// Bridge controllers on ring r.
int bridges_on_ring(int rings, int r);

}  // namespace fabric::ring
