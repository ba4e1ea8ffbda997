#include "model/backplane/xoff_controller.h"

#include <stdexcept>

namespace fabric {

XoffController::XoffController(const Params& params) : params_(params) {
  if (params_.low > params_.high) throw std::invalid_argument("802.3x: Low above High");
}

XoffController::Action XoffController::on_occupancy(uint32_t bytes, Picos now) {
  if (!holding_ && bytes >= params_.high) {
    holding_ = true;
    sent_at_ = now;
    ++xoffs_;
    return Action::xoff;
  }
  if (holding_ && bytes <= params_.low) {
    holding_ = false;
    ++xons_;
    return Action::xon;
  }
  return Action::none;
}

XoffController::Action XoffController::on_xoff_running_out(uint32_t bytes, Picos now) {
  if (!holding_ || now < xoff_runs_out()) return Action::none;
  if (bytes >= params_.high) {
    sent_at_ = now;
    ++xoffs_;
    return Action::xoff;
  }
  holding_ = false;  // the partners resume by themselves; the next crossing of High sends XOFF anew
  return Action::none;
}

}  // namespace fabric
