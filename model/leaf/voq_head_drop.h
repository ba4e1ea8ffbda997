#pragma once
// leaf.voq.drop `head` (mechanism 4, drop from head: the design's policy):
// a copy arriving at a VOQ that holds Vth units or more joins it, and the
// VOQ's next-to-send copy is dropped instead (it counts as forwarded for
// VOQ synchronization).
#include <cstdint>

#include "model/leaf/voq_drop_policy.h"

namespace fabric {

class VoqHeadDrop : public VoqDropPolicy {
 public:
  explicit VoqHeadDrop(uint32_t threshold_units) : threshold_units_(threshold_units) {}
  VoqDropDecision on_arrival(uint32_t waiting_units) const override {
    return waiting_units >= threshold_units_ ? VoqDropDecision::drop_head : VoqDropDecision::admit;
  }

 private:
  uint32_t threshold_units_;
};

}  // namespace fabric
