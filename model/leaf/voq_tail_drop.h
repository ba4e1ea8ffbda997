#pragma once
// leaf.voq.drop `tail`: a copy arriving at a VOQ that holds Vth units or
// more is dropped; the copies already waiting keep their place.
#include <cstdint>

#include "model/leaf/voq_drop_policy.h"

namespace fabric {

class VoqTailDrop : public VoqDropPolicy {
 public:
  explicit VoqTailDrop(uint32_t threshold_units) : threshold_units_(threshold_units) {}
  VoqDropDecision on_arrival(uint32_t waiting_units) const override {
    return waiting_units >= threshold_units_ ? VoqDropDecision::drop_arriving : VoqDropDecision::admit;
  }

 private:
  uint32_t threshold_units_;
};

}  // namespace fabric
