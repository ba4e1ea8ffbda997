#pragma once
// 802.3x flow control of the backplane switch (platforms.md, E12), as plain
// C++: on the switch's *total* memory occupancy, with hysteresis. When it
// reaches High the switch sends XOFF (PAUSE with the largest pause time) to
// every port with an active partner; when it falls to Low, XON (pause time
// 0). A sent XOFF lasts its pause time at the partner: if the occupancy is
// still at or above High when it would run out, XOFF is sent again; if it
// is below High by then the partners resume by themselves, and the next
// crossing of High sends XOFF anew.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class XoffController {
 public:
  struct Params {
    uint32_t high = 0;     // bytes (backplane.xoff)
    uint32_t low = 0;      // bytes, at most high (backplane.xon)
    Picos xoff_lasts = 0;  // an XOFF's pause time at the partner (0xFFFF quanta)
  };
  enum class Action { none, xoff, xon };

  explicit XoffController(const Params& params);

  // The occupancy after a frame was admitted or left, at `now`.
  Action on_occupancy(uint32_t bytes, Picos now);
  // Whether XOFF holds the partners; and when the last one runs out.
  bool holding() const { return holding_; }
  Picos xoff_runs_out() const { return sent_at_ + params_.xoff_lasts; }
  // At xoff_runs_out(): XOFF again if still at or above High.
  Action on_xoff_running_out(uint32_t bytes, Picos now);

  uint64_t xoffs() const { return xoffs_; }
  uint64_t xons() const { return xons_; }

 private:
  Params params_;
  bool holding_ = false;
  Picos sent_at_ = 0;
  uint64_t xoffs_ = 0;
  uint64_t xons_ = 0;
};

// 802.3x at a MAC: a PAUSE frame's pause time, in quanta of 512 bit times at
// the link's rate, stops data frames from that moment; 0 lets them go at
// once. A frame already on the wire finishes; PAUSE frames are never paused.
class MacPause {
 public:
  explicit MacPause(double link_gbps) : quantum_ps_(512.0 * 1000.0 / link_gbps) {}
  void on_pause(uint16_t quanta, Picos now) { until_ = now + static_cast<Picos>(quanta * quantum_ps_ + 0.5); }
  bool paused(Picos now) const { return now < until_; }
  // When the next data frame may start: after the frame on the wire, and
  // after the pause.
  Picos earliest_start(Picos wire_free) const { return wire_free > until_ ? wire_free : until_; }
  Picos until() const { return until_; }
  Picos quantum_ps() const { return static_cast<Picos>(quantum_ps_); }

 private:
  double quantum_ps_;
  Picos until_ = 0;
};

}  // namespace fabric
