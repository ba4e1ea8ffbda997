#pragma once
// A QCN reaction point: the rate limiter of one flow at its CNA (mechanism
// 7, IEEE 802.1Qau). Current rate CR, target rate TR, a byte counter and a
// timer, each counting cycles since the last CNM:
//   CNM with feedback Fb: TR = CR, CR = CR * (1 - Gd * Fb), at least the
//     minimum rate; both counters restart.
//   A cycle of either counter: while neither is past 5 cycles (fast
//     recovery) CR = (CR + TR) / 2; when one is past 5 (active increase)
//     first TR += R_AI; when both are (hyper-active) TR += i * R_HAI with
//     i = min(cycles) - 5.
//   The limiter is released when CR is back at the line rate.
// The CNA applies a CNM after the reaction time; this class has no time of
// its own but the timer's period.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class ReactionPoint {
 public:
  // From the cna.qcn.* keys, which hold the defaults (the rates scaled to
  // the line: CnaParams::scale_to_line).
  struct Params {
    double line_gbps = 0;
    double gd = 0;
    double min_gbps = 0;
    double byte_cycle = 0;   // BC_LIMIT
    Picos timer_period = 0;  // T
    double r_ai_gbps = 0;    // R_AI at this line rate
    double r_hai_gbps = 0;   // R_HAI at this line rate
    uint32_t fast_recovery_cycles = 0;
  };

  ReactionPoint(const Params& params, Picos now);

  void on_cnm(uint8_t fb, Picos now);
  // Bytes the flow sent: completes byte-counter cycles.
  void on_sent(uint32_t bytes);
  // Completes the timer cycles due by `now`.
  void on_time(Picos now);
  Picos next_timer_cycle() const { return timer_next_; }

  double current_gbps() const { return cr_; }
  double target_gbps() const { return tr_; }
  bool released() const { return released_; }
  uint32_t byte_cycles() const { return bc_cycles_; }
  uint32_t timer_cycles() const { return t_cycles_; }

 private:
  void cycle();

  Params params_;
  double cr_, tr_;
  double bytes_in_cycle_ = 0;
  uint32_t bc_cycles_ = 0, t_cycles_ = 0;
  Picos timer_next_;
  bool released_ = false;
};

}  // namespace fabric
