#pragma once
// QuickRing multicast's flow control (platforms.md, E14), plain C++: the
// adaptive SPQ limit and exponential back-off.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric::ring {

// The adaptive limit q on the packets a sender has in reservation (1b).
// B receive buffers per station, m members per group.
class AdaptiveLimit {
 public:
  AdaptiveLimit(int buffers, int members);
  int q() const { return q_; }
  // An observation while `waiting` packets wait: `other_senders` is U_i, how
  // many distinct other senders hold this station's receive buffers;
  // `occupancy` the station's own receive buffers in use. Applies the rules only when more wait than q allows.
  void observe(int waiting, int other_senders, int occupancy);
  void on_failure() {
    if (q_ > 1) --q_;
  }  // a failed attempt or a retract request
  void on_recovered_send() {
    if (q_ < buffers_) ++q_;
  }  // a packet that had failed or been retracted is sent (q <= B)

 private:
  int buffers_;
  int fair_;  // B / (m - 1)
  int q_;
};

// D0 e^(d n), the wait of the n-th retry, saturated at kLongestBackoff
// (about 53 days) so that no configuration overflows the time arithmetic.
constexpr Picos kLongestBackoff = Picos{1} << 62;
Picos backoff_wait(Picos d0, double d, int retries);

// Exponential back-off (2b): the n-th retry waits D0 e^(d n), n at most 10.
class Backoff {
 public:
  Backoff(Picos d0, double d) : d0_(d0), d_(d) {}
  Picos delay(int retry) const;

 private:
  Picos d0_;
  double d_;
};

}  // namespace fabric::ring
