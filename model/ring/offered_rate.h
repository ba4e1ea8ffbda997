#pragma once
// The packet inter-arrival time at the current offered load (platforms.md,
// E14, flow control 2a and 3a), plain C++: what arrives to be sent, not
// what gets through. Each source's packets are followed by the times its
// host made them (a moving average of their gaps); the offered load is the
// sum of the sources' rates. A station has one source, its host; a bridge
// has every sender whose packets cross it, seen on their vouchers, which
// carry the host's time: the vouchers themselves reach the bridge later
// and more slowly as the ring congests, their hosts' packets do not.
#include <cstdint>
#include <vector>

#include "model/core/ids.h"

namespace fabric::ring {

class OfferedRate {
 public:
  // `initial`: the expected inter-arrival time until a source has shown its own.
  explicit OfferedRate(Picos initial) : initial_(static_cast<double>(initial)) {}

  // A packet of `source` made by its host at `made` (a source's packets in
  // the order its host made them).
  void arrival(int source, Picos made);
  // The expected inter-arrival time of packets over all sources, in ps.
  double interval() const;

 private:
  struct Source {
    Picos last = -1;
    double gap = 0;  // 0 until a second packet
  };
  double initial_;
  std::vector<Source> sources_;
  int seen_ = 0, estimated_ = 0;
  double rate_ = 0;  // the sum of the estimated sources' 1 / gap
};

}  // namespace fabric::ring
