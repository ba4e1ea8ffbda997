#include "model/invariants/line_rate_window.h"

#include <cstdio>

namespace fabric {

std::string LineRateWindow::describe() const {
  const double elapsed = static_cast<double>(window_end_ - window_start_);
  char text[200];
  std::snprintf(text, sizeof text, "%u messages, %llu B in %.0f ps: %.3f Gb/s on a %.3f Gb/s link", kMessages,
                static_cast<unsigned long long>(window_bytes_), elapsed,
                elapsed > 0 ? window_bytes_ * 8000.0 / elapsed : 0.0, rate_gbps_);
  return text;
}

}  // namespace fabric
