#include "model/leaf/header_admission_policy.h"

namespace fabric {

CopyOrder HeaderAdmissionPolicy::order(size_t n, std::mt19937_64&) const { return mcbc_order(n); }

CopyOrder HeaderAdmissionPolicy::mcbc_order(size_t n) {
  CopyOrder order{};
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint8_t>(i);
  return order;
}

}  // namespace fabric
