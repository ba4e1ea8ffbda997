#include "model/qcn/congestion_point.h"

#include <algorithm>
#include <cmath>

namespace fabric {

CongestionPoint::CongestionPoint(const Params& params, uint64_t seed)
    : params_(params), rng_(seed), interval_(params.interval_bytes) {
  schedule_next(0);
}

uint8_t CongestionPoint::quantize(double fb, double fb_max) {
  if (!(fb > 0)) return 0;
  const double q = std::ceil(63.0 * fb / fb_max);
  return static_cast<uint8_t>(std::clamp(q, 1.0, 63.0));
}

// The standard schedule samples more often as congestion grows: the
// interval shrinks linearly from Is (no feedback) to Is / 10 (Fb at its
// maximum), with a random +-15 % so that CPs do not sample in lock step.
void CongestionPoint::schedule_next(uint8_t quantized) {
  if (params_.schedule == Schedule::fixed) {
    interval_ = params_.interval_bytes;
    return;
  }
  const double jitter = 0.85 + 0.3 * (static_cast<double>(rng_() >> 11) * 0x1.0p-53);
  interval_ = params_.interval_bytes * (1.0 - 0.9 * quantized / 63.0) * jitter;
}

std::optional<CongestionPoint::Sample> CongestionPoint::on_arrival(uint32_t bytes, double queue_bytes) {
  ++frames_since_cnm_;
  arrived_ += bytes;
  if (arrived_ < interval_) return std::nullopt;
  arrived_ = 0;
  const double q_off = queue_bytes - params_.qeq_bytes;
  const double q_delta = queue_bytes - q_old_;
  q_old_ = queue_bytes;
  Sample s;
  s.fb = q_off + params_.w * q_delta;
  s.quantized = quantize(s.fb, fb_max());
  s.cnm = s.quantized > 0 && (!cnm_sent_ || frames_since_cnm_ >= params_.frames_per_cnm);
  if (s.cnm) {
    cnm_sent_ = true;
    frames_since_cnm_ = 0;
    ++cnms_;
  }
  schedule_next(s.quantized);
  return s;
}

}  // namespace fabric
