#include "traffic/coverage.h"

#include <stdexcept>

namespace fabric::stimulus {

void Coverage::add(const Coverage& other) {
  if (other.bins_.size() != bins_.size()) throw std::logic_error("coverage: adding runs over other bins");
  for (size_t i = 0; i < bins_.size(); ++i) bins_[i].count += other.bins_[i].count;
}

std::vector<std::string> Coverage::empty_bins() const {
  std::vector<std::string> empty;
  for (const Bin& b : bins_)
    if (b.reachable && b.count == 0) empty.emplace_back(b.name);
  return empty;
}

std::string Coverage::summary() const {
  std::string s;
  for (const Bin& b : bins_) {
    if (!s.empty()) s += ", ";
    s += std::string(b.name) + " " + (b.reachable ? std::to_string(b.count) : "n/a");
  }
  return s;
}

}  // namespace fabric::stimulus
