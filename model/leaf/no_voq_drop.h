#pragma once
// leaf.voq.drop `off`: no VOQ threshold; lossy copies are dropped only by
// the header and payload pools' admission.
#include "model/leaf/voq_drop_policy.h"

namespace fabric {

class NoVoqDrop : public VoqDropPolicy {
 public:
  VoqDropDecision on_arrival(uint32_t) const override { return VoqDropDecision::admit; }
};

}  // namespace fabric
