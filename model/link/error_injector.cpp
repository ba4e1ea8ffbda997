#include "model/link/error_injector.h"

#include <cmath>

namespace fabric {

double ErrorInjector::packet_probability(uint32_t wire_bytes) const {
  if (params_.bit_error_rate > 0) return -std::expm1(8.0 * wire_bytes * std::log1p(-params_.bit_error_rate));
  return params_.packet_error_probability;
}

bool ErrorInjector::corrupt(uint64_t seq, uint32_t wire_bytes, bool not_scripted) {
  bool bad = !not_scripted && params_.scripted.count(seq) > 0;
  const double p = packet_probability(wire_bytes);
  if (!bad && p > 0) bad = static_cast<double>(rng_() >> 11) * 0x1.0p-53 < p;
  injected_ += bad;
  return bad;
}

}  // namespace fabric
