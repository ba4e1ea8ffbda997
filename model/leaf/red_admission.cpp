#include "model/leaf/red_admission.h"

namespace fabric {

bool RedAdmission::accept(uint32_t used, std::mt19937_64& rng) const {
  if (used < low_) return true;
  if (used > high_) return false;
  // 53 random bits against p, so that p = 0 never drops and p = 1 always does.
  const double draw = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  return draw >= p_;
}

}  // namespace fabric
