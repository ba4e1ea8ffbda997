#include "model/qcn/reaction_point.h"

#include <algorithm>

namespace fabric {

ReactionPoint::ReactionPoint(const Params& params, Picos now)
    : params_(params), cr_(params.line_gbps), tr_(params.line_gbps), timer_next_(now + params.timer_period) {}

void ReactionPoint::on_cnm(uint8_t fb, Picos now) {
  released_ = false;
  tr_ = cr_;
  cr_ = std::max(params_.min_gbps, cr_ * (1.0 - params_.gd * fb));
  bc_cycles_ = t_cycles_ = 0;
  bytes_in_cycle_ = 0;
  timer_next_ = now + params_.timer_period;
}

void ReactionPoint::on_sent(uint32_t bytes) {
  if (released_) return;
  bytes_in_cycle_ += bytes;
  while (!released_ && bytes_in_cycle_ >= params_.byte_cycle) {
    bytes_in_cycle_ -= params_.byte_cycle;
    ++bc_cycles_;
    cycle();
  }
}

void ReactionPoint::on_time(Picos now) {
  while (!released_ && now >= timer_next_) {
    timer_next_ += params_.timer_period;
    ++t_cycles_;
    cycle();
  }
}

void ReactionPoint::cycle() {
  const uint32_t fr = params_.fast_recovery_cycles;
  if (bc_cycles_ > fr && t_cycles_ > fr) {
    tr_ += (std::min(bc_cycles_, t_cycles_) - fr) * params_.r_hai_gbps;
  } else if (bc_cycles_ > fr || t_cycles_ > fr) {
    tr_ += params_.r_ai_gbps;
  }
  tr_ = std::min(tr_, params_.line_gbps);
  cr_ = (cr_ + tr_) / 2;
  if (cr_ >= params_.line_gbps * 0.999999) {
    cr_ = params_.line_gbps;
    released_ = true;
  }
}

}  // namespace fabric
