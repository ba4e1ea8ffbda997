#pragma once
// No link carries more than its line rate: the messages a link puts on the
// wire, taken in consecutive windows of kMessages, must each have needed at
// least their bits' time at the rate, from the first one's start to the
// last one's end (with a picosecond per message for the link's rounding to
// whole picoseconds). Computed from the rate here, not from the link's own
// serialization arithmetic, so that it checks that arithmetic too. The link
// counts its messages and bytes anyway: it calls open() before the first
// message of a window and close() after the last, and this state is touched
// twice a window, not per message.
#include <cstdint>
#include <string>

#include "model/core/ids.h"

namespace fabric {

class LineRateWindow {
 public:
  static constexpr uint32_t kMessages = 8;
  enum class Verdict { held, broken };

  explicit LineRateWindow(double rate_gbps) : rate_gbps_(rate_gbps) {}

  // Whether the link's `count`-th message (from 1) opens a window, and
  // whether it closes one.
  static bool opens(uint64_t count) { return (count - 1) % kMessages == 0; }
  static bool closes(uint64_t count) { return count % kMessages == 0; }

  // The window's first message starts at `start`, when the link had carried
  // `bytes_before` bytes (per-message overhead included).
  void open(Picos start, uint64_t bytes_before) {
    window_start_ = start;
    bytes_before_ = bytes_before;
  }
  // Its last message ends at `end`, the link having carried `bytes_after`.
  Verdict close(Picos end, uint64_t bytes_after) {
    ++windows_;
    window_end_ = end;
    window_bytes_ = bytes_after - bytes_before_;
    const double needed_ps = static_cast<double>(window_bytes_) * 8000.0 / rate_gbps_;
    return needed_ps <= static_cast<double>(window_end_ - window_start_) + kMessages ? Verdict::held : Verdict::broken;
  }
  // The last window closed, in words (for the report of a broken one).
  std::string describe() const;
  uint64_t windows() const { return windows_; }

 private:
  double rate_gbps_;
  Picos window_start_ = 0;
  Picos window_end_ = 0;
  uint64_t bytes_before_ = 0;
  uint64_t window_bytes_ = 0;
  uint64_t windows_ = 0;
};

}  // namespace fabric
