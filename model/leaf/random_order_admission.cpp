#include "model/leaf/random_order_admission.h"

#include <utility>

#include "model/core/random.h"

namespace fabric {

CopyOrder RandomOrderAdmission::order(size_t n, std::mt19937_64& rng) const {
  CopyOrder order = mcbc_order(n);
  for (size_t i = n; i > 1; --i) std::swap(order[i - 1], order[uniform_below(rng, i)]);  // Fisher-Yates
  return order;
}

}  // namespace fabric
