#pragma once
// The m-port n-tree InfiniBand fat tree IBFT(m, n) of platforms.md, E13, as
// plain C++: 2 (m/2)^n processing nodes and (2n - 1) (m/2)^(n-1) switches
// of m ports, height n + 1.
//
// A node is P(p0 p1 ... p(n-1)), p0 in 0..m-1 and the other digits in
// 0..m/2-1; its PID (rank) is the value of its digits read in base m/2 with
// p0 as the leading digit. A switch is SW<w, l>, level l in 0..n-1 (0 the
// top), w of n - 1 digits: for l = 0 each in 0..m/2-1; for l >= 1, w0 in
// 0..m-1 and the others in 0..m/2-1. Ports are numbered 1..m. SW<w, l> port
// k and SW<w', l+1> port k' are joined when w and w' agree in every digit
// but digit l, k = w'_l + 1 (a down port of the upper switch) and k' = w_l +
// m/2 + 1 (an up port of the lower one). Node P(p) hangs on port p(n-1) + 1
// of SW<p0 ... p(n-2), n-1>. Switches are numbered level by level, top
// first, each level's in lexicographic order of w.
#include <cstdint>
#include <string>
#include <vector>

namespace fabric {

using Digits = std::vector<int>;

// At most as many nodes as InfiniBand has unicast LIDs.
constexpr int64_t kMaxNodes = 0xBFFF;

class IbftTopology {
 public:
  // What a port of a switch is joined to.
  struct Peer {
    enum class Kind { none, node, sw } kind = Kind::none;
    int index = -1;  // the node's PID or the switch's number
    int port = 0;    // the switch's port (1..m); 1 for a node's only port
  };

  // Throws std::invalid_argument for odd m, m outside 2..62, n < 1, or more
  // than kMaxNodes nodes.
  IbftTopology(int m, int n);

  int m() const { return m_; }
  int n() const { return n_; }
  int half() const { return m_ / 2; }
  int nodes() const { return nodes_; }
  int switches() const { return static_cast<int>(switch_labels_.size()); }
  int switches_at(int level) const;
  int links() const;  // switch-switch and node-switch cables

  // Nodes.
  Digits node_digits(int pid) const;
  int pid(const Digits& p) const;
  std::string node_name(int pid) const;  // "P(200)"
  // The leaf switch and port a node hangs on.
  int leaf_of(int pid) const { return leaf_of_[static_cast<size_t>(pid)]; }
  int leaf_port_of(int pid) const { return node_digits(pid).back() + 1; }

  // Switches.
  int level(int sw) const { return switch_levels_[static_cast<size_t>(sw)]; }
  const Digits& label(int sw) const { return switch_labels_[static_cast<size_t>(sw)]; }
  int switch_index(const Digits& w, int level) const;  // -1 when there is none
  std::string switch_name(int sw) const;               // "SW<00,2>"
  const Peer& peer(int sw, int port) const;
  // Down ports face nodes or lower switches: 1..m at the top, 1..m/2 below.
  bool is_down_port(int sw, int port) const { return level(sw) == 0 || port <= half(); }

 private:
  int m_, n_, nodes_;
  std::vector<Digits> switch_labels_;
  std::vector<int> switch_levels_;
  std::vector<std::vector<Peer>> peers_;  // by switch, by port - 1
  std::vector<int> leaf_of_;
};

}  // namespace fabric
