#pragma once
// The subnet manager of an IBFT(m, n) (platforms.md, E13), as plain C++:
// LIDs and LMC, cyclic path selection, linear forwarding tables from the
// two forwarding equations, the cyclic scheme's multicast tables (one tree
// per source: the union of the ports linear forwarding gives for each
// member's selected LID) and OpenSM's single spanning tree per group.
//
// LMC = log2((m/2)^(n-1)), rounded up when (m/2)^(n-1) is no power of two
// (then only the first (m/2)^(n-1) LIDs of a node are used); node P(p) owns
// the 2^LMC LIDs from BaseLID = 2^LMC PID + 1. A source P(p') sending to P(p), their greatest common
// prefix of length l, uses BaseLID(P(p)) + the value of p'(l+1) ...
// p'(n-1) in base m/2. SW<w, l> forwards a LID owned by P(p) down on port
// p_l + 1 when w0 ... w(l-1) = p0 ... p(l-1), else up on port
// floor((lid - 1) / (m/2)^(n-1-l)) mod (m/2) + m/2 + 1.
#include <cstdint>
#include <vector>

#include "model/ibft/ibft_topology.h"

namespace fabric {

// A multicast entry: the output ports of one switch, as a bit set (bit k: port k).
using PortSet = uint64_t;

// InfiniBand's limits: LMC at most 7, unicast LIDs 0x0001-0xBFFF.
constexpr int kMaxLmc = 7;
constexpr int kLastUnicastLid = 0xBFFF;

// Which of the switches tied at the smallest maximum hop count becomes a
// group's OpenSM root (platforms.md leaves it open). With random groups on a
// fat tree most groups tie over every top switch.
enum class OpenSmRoot {
  first,   // the first in fixed order: every such group gets the same root, as OpenSM's own tie-break does
  spread,  // the one at the group's multicast LID modulo the number tied: groups spread over them
};

class SubnetManager {
 public:
  // Throws std::invalid_argument when the tree needs an LMC above 7 or more
  // LIDs than the unicast space holds.
  explicit SubnetManager(const IbftTopology& topology);

  int lmc() const { return lmc_; }
  int lids_per_node() const { return lids_per_node_; }
  int paths() const { return paths_; }  // (m/2)^(n-1): the LIDs of a node in use
  int base_lid(int pid) const { return lids_per_node_ * pid + 1; }
  int owner_of(int lid) const { return (lid - 1) / lids_per_node_; }
  // The length of the greatest common prefix of two nodes' digits.
  int common_prefix(int a, int b) const;
  // The value of a node's digits from `from` on, in base m/2: its rank
  // within its group of common prefix of length `from`.
  int rank(int pid, int from) const;
  // The LID a source uses to reach a destination (cyclic path selection).
  int cyclic_lid(int source, int destination) const;
  // Linear forwarding: the output port of a switch for a LID.
  int out_port(int sw, int lid) const;

  // The switches and ports a packet from `source` to `lid` leaves on, in order.
  struct Hop {
    int sw;
    int port;
  };
  std::vector<Hop> route(int source, int lid) const;

  // Multicast tables, by switch (0: no entry).
  using McTable = std::vector<PortSet>;
  // The cyclic scheme's entries for one source and its group: the union,
  // at each switch, of the ports each member's cyclic LID leaves on.
  McTable cyclic_tree(int source, const std::vector<int>& members) const;
  // OpenSM's root for a group, `nodes` being its members and send-only
  // members: a switch with the smallest maximum hop count to them. The
  // candidates are all such switches, in fixed order (top level first, then
  // by label); `rule` takes one of them, `mlid` being the group's multicast
  // LID.
  std::vector<int> opensm_root_candidates(const std::vector<int>& nodes) const;
  int opensm_root(const std::vector<int>& nodes, OpenSmRoot rule, int mlid) const;
  // OpenSM's tree for a group, from its root (opensm_root of the members
  // and send-only members, the senders that are not members): each of them
  // is reached by the first port on a least-hop path. A member's own port
  // is in its leaf switch's entry; a send-only member's is not (its packets
  // enter there, none leave). A packet is forwarded on every port of an
  // entry but the one it came in on.
  McTable opensm_tree(const std::vector<int>& members, const std::vector<int>& send_only, OpenSmRoot rule, int mlid,
                      int* root = nullptr) const;

  // Switch-to-switch and switch-to-node hop counts from a switch (BFS).
  std::vector<int> hops_from_switch(int sw) const;  // by switch
  int hops_to_node(int sw, int pid, const std::vector<int>& switch_hops) const;

 private:
  const IbftTopology& t_;
  int lmc_;
  int lids_per_node_;
  int paths_;
};

}  // namespace fabric
