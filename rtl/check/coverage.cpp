#include "rtl/check/coverage.h"

#include <stdexcept>

namespace fabric::stimulus {

void Coverage::add(const Coverage& other) {
  if (other.bins_.size() != bins_.size()) throw std::logic_error("coverage: adding runs over other bins");
  for (size_t i = 0; i < bins_.size(); ++i) bins_[i].count += other.bins_[i].count;
  if (other.fields_.size() != fields_.size()) throw std::logic_error("coverage: adding runs over other fields");
  for (size_t i = 0; i < fields_.size(); ++i) {
    fields_[i].ones |= other.fields_[i].ones;
    fields_[i].zeros |= other.fields_[i].zeros;
  }
}

std::vector<std::string> Coverage::untoggled_bits() const {
  std::vector<std::string> bits;
  for (const Field& f : fields_) {
    for (int b = 0; b < f.bits; ++b) {
      const std::string bit = std::string(f.name) + "[" + std::to_string(b) + "]=";
      if (!(f.ones >> b & 1)) bits.push_back(bit + "1");
      if (!(f.zeros >> b & 1)) bits.push_back(bit + "0");
    }
  }
  return bits;
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
  for (size_t i = 0; i < fields_.size(); ++i) {
    const Field& f = fields_[i];
    const int toggled = __builtin_popcountll(f.ones & f.zeros & mask(f.bits));
    s += std::string(i == 0 ? "; toggled: " : ", ") + f.name + " " + std::to_string(toggled) + "/" +
         std::to_string(f.bits) + " bits";
  }
  return s;
}

}  // namespace fabric::stimulus
