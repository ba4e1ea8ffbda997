#include "model/leaf/header_admission.h"

#include <algorithm>
#include <stdexcept>

#include "model/core/random.h"

namespace fabric {

bool HeaderAdmission::accept(uint32_t used, std::mt19937_64& rng) const {
  if (params_.policy != Policy::red) return used < params_.hth;
  if (used < params_.red_low) return true;
  if (used > params_.red_high) return false;
  // Between Hlow and Hhi, both included: drop with probability p. 53 random
  // bits against p, so that p = 0 never drops and p = 1 always does.
  const double draw = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  return draw >= params_.red_p;
}

std::array<uint8_t, kMaxLocalFanout> HeaderAdmission::order(size_t n, std::mt19937_64& rng) const {
  std::array<uint8_t, kMaxLocalFanout> order{};
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint8_t>(i);
  if (params_.policy == Policy::random_order) {
    for (size_t i = n; i > 1; --i) std::swap(order[i - 1], order[uniform_below(rng, i)]);  // Fisher-Yates
  }
  return order;
}

HeaderAdmission::Policy HeaderAdmission::parse(const std::string& name) {
  if (name == "fixed_order") return Policy::fixed_order;
  if (name == "random_order") return Policy::random_order;
  if (name == "red") return Policy::red;
  throw std::invalid_argument("header admission policy '" + name + "'");
}

}  // namespace fabric
