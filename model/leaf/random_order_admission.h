#pragma once
// Header admission `random_order`: the hard threshold of fixed_order, the
// copies tried in a random order drawn per frame, so every destination has
// the same chance at the boundary.
#include <cstdint>

#include "model/leaf/fixed_order_admission.h"

namespace fabric {

class RandomOrderAdmission final : public FixedOrderAdmission {
 public:
  explicit RandomOrderAdmission(uint32_t hth) : FixedOrderAdmission(hth) {}
  CopyOrder order(size_t n, std::mt19937_64& rng) const override;
};

}  // namespace fabric
