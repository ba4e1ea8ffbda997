#pragma once
// Reservation-based, totally ordered multicast on a QuickRing ring
// (platform `ring`, platforms.md E14): stations with register insertion on
// 1.6 Gb/s segments, buffers reserved by tickets before a multicast, and
// the sender flow control that keeps reservations from thrashing.
#include "platforms/common/platform.h"

namespace fabric {

class RingPlatform final : public Platform {
 public:
  std::string name() const override { return "ring"; }
  std::string title() const override {
    return "QuickRing rings with reservation-based, totally ordered multicast and its flow control (E14)";
  }
  Vocabulary vocabulary() const override { return {"packet", "packets", "packet"}; }
  void declare_params(config::ParamRegistry& registry) const override;
  PlatformResolution resolve(const config::Config& config, const SharedRunKeys& keys) const override;
};

}  // namespace fabric
