#pragma once
// Crossbar input sharing (mechanism 9): packet-size-aware weighted round
// robin between a port's unicast packets and its multicast copies at its
// crossbar input. Each class advances a virtual clock by bytes / weight when
// served; the class with the earlier clock goes next. A class that was idle
// starts from the other's clock, so idleness earns no credit.
#include <cstdint>

namespace fabric {

class InputShare {
 public:
  enum Class { unicast = 0, multicast = 1 };

  // multicast_weight: the multicast share in percent, 1 .. 99.
  explicit InputShare(uint32_t multicast_weight = 50)
      : weight_{static_cast<double>(100 - multicast_weight), static_cast<double>(multicast_weight)} {}

  // Both classes have a packet ready: which goes first.
  Class pick() const { return clock_[multicast] < clock_[unicast] ? multicast : unicast; }
  // A packet of `bytes` of class c leaves; `other_waiting` says whether the
  // other class had a packet ready.
  void served(Class c, uint32_t bytes, bool other_waiting) {
    if (!other_waiting) {
      const double latest = clock_[unicast] > clock_[multicast] ? clock_[unicast] : clock_[multicast];
      clock_[unicast] = clock_[multicast] = latest;
    }
    clock_[c] += static_cast<double>(bytes) / weight_[c];
  }

 private:
  double weight_[2];
  double clock_[2] = {0, 0};
};

}  // namespace fabric
