#include "model/leaf/spray_policy.h"

#include <stdexcept>

namespace fabric {

int RoundRobinSpray::choose(const std::vector<int>& depths, int capacity) {
  const size_t n = depths.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (next_ + k) % n;
    if (depths[i] < capacity) {
      next_ = (i + 1) % n;
      return static_cast<int>(i);
    }
  }
  return -1;
}

int LeastLoadedSpray::choose(const std::vector<int>& depths, int capacity) {
  const size_t n = depths.size();
  int best = -1;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (next_ + k) % n;
    if (depths[i] < capacity && (best < 0 || depths[i] < depths[best])) best = static_cast<int>(i);
  }
  if (best >= 0) next_ = (static_cast<size_t>(best) + 1) % n;
  return best;
}

std::unique_ptr<SprayPolicy> make_spray_policy(const std::string& name) {
  if (name == "round_robin") return std::make_unique<RoundRobinSpray>();
  if (name == "least_loaded") return std::make_unique<LeastLoadedSpray>();
  throw std::invalid_argument("unknown spray policy: " + name);
}

}  // namespace fabric
