#pragma once
// A latency distribution in logarithmic bins (32 per octave, ~2 % wide):
// percentiles of millions of frames in a few kilobytes, for a run's summary
// when the database does not hold every frame.
#include <array>
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class LatencyHistogram {
 public:
  void add(Picos latency) {
    ++bins_[bin_of(latency < 1 ? 1 : static_cast<uint64_t>(latency))];
    ++count_;
    if (latency > max_) max_ = latency;
    sum_ += latency;
  }
  void merge(const LatencyHistogram& other) {
    for (size_t i = 0; i < bins_.size(); ++i) bins_[i] += other.bins_[i];
    count_ += other.count_;
    sum_ += other.sum_;
    if (other.max_ > max_) max_ = other.max_;
  }
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0; }
  Picos max() const { return max_; }
  // The upper edge of the bin holding the q-quantile (0 < q <= 1), at most max().
  Picos quantile(double q) const {
    if (count_ == 0) return 0;
    const uint64_t rank = static_cast<uint64_t>(q * count_ + 0.999999);
    uint64_t seen = 0;
    for (size_t i = 0; i < bins_.size(); ++i) {
      seen += bins_[i];
      if (seen >= rank) {
        const Picos edge = upper_edge(i);
        return edge < max_ ? edge : max_;
      }
    }
    return max_;
  }

 private:
  static constexpr int kSubBins = 32;
  static size_t bin_of(uint64_t x) {
    const int octave = 63 - __builtin_clzll(x);
    const uint64_t sub = octave >= 5 ? (x >> (octave - 5)) & (kSubBins - 1) : (x << (5 - octave)) & (kSubBins - 1);
    return static_cast<size_t>(octave) * kSubBins + sub;
  }
  static Picos upper_edge(size_t bin) {
    const int octave = static_cast<int>(bin / kSubBins);
    const double sub = static_cast<double>(bin % kSubBins);
    return static_cast<Picos>((1.0 + (sub + 1) / kSubBins) * static_cast<double>(uint64_t{1} << octave));
  }
  std::array<uint64_t, 64 * kSubBins> bins_{};
  uint64_t count_ = 0;
  Picos sum_ = 0;
  Picos max_ = 0;
};

}  // namespace fabric
