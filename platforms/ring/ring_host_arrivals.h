#pragma once
// A ring station's host traffic (ring::PacketSource) from traffic/'s
// PacketArrivals: a sender's load spaced by its arrival process.
#include <cstdint>

#include "model/ring/packet_source.h"
#include "traffic/packet_arrivals.h"

namespace fabric {

class RingHostArrivals final : public ring::PacketSource {
 public:
  RingHostArrivals(const traffic::SenderLoad& load, traffic::Arrival arrival, uint64_t seed, uint32_t payload_bytes)
      : arrivals_(load, arrival, seed, payload_bytes) {}
  Picos next() override { return arrivals_.next(); }

 private:
  traffic::PacketArrivals arrivals_;
};

}  // namespace fabric
