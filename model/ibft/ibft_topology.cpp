#include "model/ibft/ibft_topology.h"

#include <map>
#include <stdexcept>

namespace fabric {

namespace {

// Every label whose first digit is below `first` and the others below `rest`,
// in lexicographic order.
std::vector<Digits> labels(int digits, int first, int rest) {
  std::vector<Digits> out;
  if (digits == 0) return {Digits{}};
  Digits d(static_cast<size_t>(digits), 0);
  for (;;) {
    out.push_back(d);
    int i = digits - 1;
    for (; i >= 0; --i) {
      const int limit = i == 0 ? first : rest;
      if (++d[static_cast<size_t>(i)] < limit) break;
      d[static_cast<size_t>(i)] = 0;
    }
    if (i < 0) return out;
  }
}

char digit_char(int d) { return static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10); }

}  // namespace

IbftTopology::IbftTopology(int m, int n) : m_(m), n_(n) {
  if (m < 2 || m % 2 != 0 || m > 62) throw std::invalid_argument("IBFT(m, n): m must be even, 2 .. 62");
  if (n < 1) throw std::invalid_argument("IBFT(m, n): n must be at least 1");
  const int h = m / 2;
  int64_t nodes = 2;
  for (int i = 0; i < n && nodes <= kMaxNodes; ++i) nodes *= h;
  if (nodes > kMaxNodes) throw std::invalid_argument("IBFT(m, n): more than 49151 nodes");
  nodes_ = static_cast<int>(nodes);
  for (int l = 0; l < n; ++l) {
    for (const Digits& w : labels(n - 1, l == 0 ? h : m, h)) {
      switch_labels_.push_back(w);
      switch_levels_.push_back(l);
    }
  }
  std::map<std::pair<int, Digits>, int> index;
  for (int s = 0; s < switches(); ++s)
    index[{switch_levels_[static_cast<size_t>(s)], switch_labels_[static_cast<size_t>(s)]}] = s;
  peers_.assign(static_cast<size_t>(switches()), std::vector<Peer>(static_cast<size_t>(m)));
  // Switch to switch: each lower switch's up port k' = w_l + m/2 + 1 reaches
  // the upper switch whose label differs in digit l only.
  for (int s = 0; s < switches(); ++s) {
    const int l = level(s);
    if (l == 0) continue;
    const Digits& lower = label(s);
    for (int up = 0; up < h; ++up) {
      Digits upper = lower;
      upper[static_cast<size_t>(l - 1)] = up;
      const int u = index.at({l - 1, upper});
      const int k = lower[static_cast<size_t>(l - 1)] + 1;  // the upper switch's down port
      const int k_lower = up + h + 1;
      peers_[static_cast<size_t>(s)][static_cast<size_t>(k_lower - 1)] = {Peer::Kind::sw, u, k};
      peers_[static_cast<size_t>(u)][static_cast<size_t>(k - 1)] = {Peer::Kind::sw, s, k_lower};
    }
  }
  leaf_of_.resize(static_cast<size_t>(nodes_));
  for (int p = 0; p < nodes_; ++p) {
    const Digits d = node_digits(p);
    const int leaf = index.at({n - 1, Digits(d.begin(), d.end() - 1)});
    leaf_of_[static_cast<size_t>(p)] = leaf;
    peers_[static_cast<size_t>(leaf)][static_cast<size_t>(d.back())] = {Peer::Kind::node, p, 1};
  }
}

int IbftTopology::switches_at(int level) const {
  int count = 0;
  for (int l : switch_levels_) count += l == level;
  return count;
}

int IbftTopology::links() const {
  int ends = 0;
  for (const auto& ports : peers_)
    for (const Peer& p : ports) ends += p.kind == Peer::Kind::sw ? 1 : p.kind == Peer::Kind::node ? 2 : 0;
  return ends / 2;
}

Digits IbftTopology::node_digits(int pid) const {
  Digits d(static_cast<size_t>(n_));
  for (int i = n_ - 1; i >= 1; --i) {
    d[static_cast<size_t>(i)] = pid % half();
    pid /= half();
  }
  d[0] = pid;
  return d;
}

int IbftTopology::pid(const Digits& p) const {
  int v = 0;
  for (int digit : p) v = v * half() + digit;
  return v;
}

std::string IbftTopology::node_name(int pid) const {
  std::string s = "P(";
  for (int d : node_digits(pid)) s += digit_char(d);
  return s + ")";
}

int IbftTopology::switch_index(const Digits& w, int level) const {
  for (int s = 0; s < switches(); ++s)
    if (switch_levels_[static_cast<size_t>(s)] == level && switch_labels_[static_cast<size_t>(s)] == w) return s;
  return -1;
}

std::string IbftTopology::switch_name(int sw) const {
  std::string s = "SW<";
  for (int d : label(sw)) s += digit_char(d);
  return s + "," + std::to_string(level(sw)) + ">";
}

const IbftTopology::Peer& IbftTopology::peer(int sw, int port) const {
  return peers_.at(static_cast<size_t>(sw)).at(static_cast<size_t>(port - 1));
}

}  // namespace fabric
