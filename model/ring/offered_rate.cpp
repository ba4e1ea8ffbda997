#include "model/ring/offered_rate.h"

#include <algorithm>

namespace fabric::ring {

namespace {
constexpr double kGapAverageWeight = 1.0 / 8;
constexpr double kMinGap = 1;  // ps: packets made at one instant count as 1 ps apart
}  // namespace

void OfferedRate::arrival(int source, Picos made) {
  if (source < 0) return;
  const auto i = static_cast<size_t>(source);
  if (i >= sources_.size()) sources_.resize(i + 1);
  Source& s = sources_[i];
  if (s.last < 0) {
    ++seen_;
  } else if (made >= s.last) {
    const double gap = std::max(kMinGap, static_cast<double>(made - s.last));
    if (s.gap == 0) {
      ++estimated_;
      s.gap = gap;
    } else {
      rate_ -= 1 / s.gap;
      s.gap += kGapAverageWeight * (gap - s.gap);
    }
    rate_ += 1 / s.gap;
  }
  s.last = std::max(s.last, made);
}

double OfferedRate::interval() const {
  if (estimated_ == 0 || rate_ <= 0) return initial_;
  // Sources seen once count at the estimated sources' mean rate.
  return estimated_ / (rate_ * seen_);
}

}  // namespace fabric::ring
