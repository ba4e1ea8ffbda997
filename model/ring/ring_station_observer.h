#pragma once
// What a ring station reports as it happens, for whoever records it
// (RingStationProbe). Plain C++: the station holds a pointer, null when
// nothing listens. Packets are named by their source station and number.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

// A ring packet's frame id in the records: its source station and number.
inline FrameId ring_packet_id(int station, uint64_t packet) {
  return FrameId((uint64_t{static_cast<uint32_t>(station)} << 32) | packet);
}

class RingStationObserver {
 public:
  virtual ~RingStationObserver() = default;
  // The host's queue was full: its packet is lost.
  virtual void on_host_drop(uint64_t packet, Picos now) = 0;
  // The station's packet was authorised after `attempts` tickets, and sent.
  virtual void on_sent(uint64_t packet, Picos created, int attempts, Picos now) = 0;
  // A ticket of the station's was retracted.
  virtual void on_retract(Picos now) = 0;
  // The host took `source`'s packet at `at`.
  virtual void on_delivery(int source, uint64_t packet, Picos created, Picos at) = 0;
};

}  // namespace fabric
