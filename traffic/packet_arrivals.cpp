#include "traffic/packet_arrivals.h"

namespace fabric::traffic {

PacketArrivals::PacketArrivals(const SenderLoad& load, Arrival arrival, uint64_t seed, uint32_t payload_bytes)
    : load_(load), process_(arrival, seed), bits_(payload_bytes * 8.0) {}

Picos PacketArrivals::next() {
  for (;;) {
    const Picos at = static_cast<Picos>(t_);
    const double gbps = load_.gbps_at(at);
    const Picos change = load_.next_change(at);
    if (gbps <= 0) {
      if (change == kNever) return kNever;
      t_ = static_cast<double>(change);
      first_ = true;
      continue;
    }
    const double period = bits_ * 1000.0 / gbps;  // ps
    const double candidate = t_ + (first_ ? static_cast<double>(process_.draw_phase(period)) : process_.gap_ps(period));
    if (change != kNever && candidate >= static_cast<double>(change)) {
      t_ = static_cast<double>(change);  // drawn again at the new rate
      first_ = true;
      continue;
    }
    first_ = false;
    t_ = candidate;
    return static_cast<Picos>(t_);
  }
}

}  // namespace fabric::traffic
