#pragma once
// Header admission `red`: accept below Hlow, drop above Hhi, between them
// (both included) drop with probability p; the copies tried in the MCBC's
// order.
#include <cstdint>

#include "model/leaf/header_admission_policy.h"

namespace fabric {

class RedAdmission final : public HeaderAdmissionPolicy {
 public:
  RedAdmission(uint32_t low, uint32_t high, double p) : low_(low), high_(high), p_(p) {}
  bool accept(uint32_t used, std::mt19937_64& rng) const override;

 private:
  uint32_t low_, high_;
  double p_;
};

}  // namespace fabric
