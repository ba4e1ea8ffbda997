#pragma once
// Header admission `fixed_order`: a hard threshold Hth (drop when the pool
// holds Hth or more headers), the copies tried in the MCBC's order, so the
// earlier destinations of a frame win at the boundary.
#include <cstdint>

#include "model/leaf/header_admission_policy.h"

namespace fabric {

class FixedOrderAdmission : public HeaderAdmissionPolicy {
 public:
  explicit FixedOrderAdmission(uint32_t hth) : hth_(hth) {}
  bool accept(uint32_t used, std::mt19937_64&) const override { return used < hth_; }

 private:
  uint32_t hth_;
};

}  // namespace fabric
