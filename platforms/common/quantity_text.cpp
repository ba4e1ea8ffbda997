#include "platforms/common/quantity_text.h"

#include <cmath>
#include <cstdio>

namespace fabric {

std::string number_text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  if (std::fabs(value) >= 1000) std::snprintf(buffer, sizeof buffer, "%.0f", value);
  return buffer;
}

std::string time_text(double ps) {
  if (ps < 1e6) return number_text(ps / 1e3) + " ns";
  if (ps < 1e9) return number_text(ps / 1e6) + " us";
  return number_text(ps / 1e9) + " ms";
}

std::string bytes_text(double bytes) {
  if (bytes < 1024) return number_text(bytes) + " B";
  if (bytes < 1024.0 * 1024) return number_text(bytes / 1024) + " KB";
  return number_text(bytes / 1024 / 1024) + " MB";
}

std::string gbps_text(double gbps) { return number_text(gbps) + " Gb/s"; }

}  // namespace fabric
