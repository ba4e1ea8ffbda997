#pragma once
// No link carries more than its line rate: the messages a link puts on the
// wire, taken in consecutive windows of kMessages, must each have needed at
// least their bits' time at the rate, from the first one's start to the
// last one's end (with a picosecond per message for the link's rounding to
// whole picoseconds). Computed from the rate here, not from the link's own
// serialization arithmetic, so that it checks that arithmetic too.
#include <cstdint>
#include <string>

#include "model/core/ids.h"

namespace fabric {

class LineRateWindow {
 public:
  static constexpr uint32_t kMessages = 8;
  enum class Verdict { open, held, broken };

  explicit LineRateWindow(double rate_gbps) : rate_gbps_(rate_gbps) {}

  // A message of `bytes` (per-message overhead included) on the wire over
  // [start, end). `held` or `broken` when it closed a window.
  Verdict add(Picos start, Picos end, uint64_t bytes) {
    if (count_ == 0) {
      window_start_ = start;
      window_bytes_ = 0;
    }
    window_bytes_ += bytes;
    if (++count_ < kMessages) return Verdict::open;
    count_ = 0;
    window_end_ = end;
    return fits() ? Verdict::held : Verdict::broken;
  }
  // The last window closed, in words (for the report of a broken one).
  std::string describe() const;
  uint64_t windows() const { return windows_; }

 private:
  bool fits() {
    ++windows_;
    const double needed_ps = static_cast<double>(window_bytes_) * 8000.0 / rate_gbps_;
    return needed_ps <= static_cast<double>(window_end_ - window_start_) + kMessages;
  }

  double rate_gbps_;
  Picos window_start_ = 0;
  Picos window_end_ = 0;
  uint64_t window_bytes_ = 0;
  uint32_t count_ = 0;
  uint64_t windows_ = 0;
};

}  // namespace fabric
