#pragma once
// A QCN congestion point (mechanism 6, IEEE 802.1Qau with the spec's two
// changes: ingress positions and occupancy-based culprits, which live in the
// shell and in culprit_selector.h). It watches one buffer and samples its
// arrivals: every sampling interval of arrived bytes it computes
//   Qoff = Q - Qeq, Qdelta = Q - Qold, Fb = Qoff + w * Qdelta
// and asks for a CNM when Fb > 0, at most one per `frames_per_cnm` frames.
// Fb is quantized to 6 bits against Fb_max = Qeq * (2w + 1).
#include <cstdint>
#include <optional>
#include <random>

namespace fabric {

class CongestionPoint {
 public:
  enum class Schedule { fixed, standard };
  // From the leaf.qcn.* keys, which hold the defaults.
  struct Params {
    double qeq_bytes = 0;
    double w = 0;
    double interval_bytes = 0;  // Is
    Schedule schedule = Schedule::standard;
    uint32_t frames_per_cnm = 0;
  };
  struct Sample {
    double fb;
    uint8_t quantized;  // 1 .. 63 when a CNM is due
    bool cnm;
  };

  CongestionPoint(const Params& params, uint64_t seed);

  // A frame of `bytes` arrived and the buffer now holds `queue_bytes`.
  // Returns the sample when this arrival closes a sampling interval.
  std::optional<Sample> on_arrival(uint32_t bytes, double queue_bytes);

  // 6-bit feedback: ceil(63 * Fb / Fb_max), at least 1 for Fb > 0, at most 63.
  static uint8_t quantize(double fb, double fb_max);
  double fb_max() const { return params_.qeq_bytes * (2 * params_.w + 1); }
  double next_interval_bytes() const { return interval_; }
  uint64_t cnms() const { return cnms_; }

 private:
  void schedule_next(uint8_t quantized);

  Params params_;
  std::mt19937_64 rng_;
  double q_old_ = 0;
  double arrived_ = 0;  // bytes since the last sample
  double interval_;     // bytes until the next sample
  uint64_t frames_since_cnm_ = 0;
  bool cnm_sent_ = false;
  uint64_t cnms_ = 0;
};

}  // namespace fabric
