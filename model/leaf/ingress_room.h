#pragma once
// Room for a lossless frame at a port's ingress (issue 18 §4): a lossless
// frame is admitted whole, its payload in the pool of the VL it arrives on
// and every copy's header in its VL's header pool, or not at all. A user
// port then holds it at the port and STOPs the CNA; a surrogate's egress
// does not hand it back yet (fabric-internal PAUSE). Never a drop.
#include <cstdint>

#include "model/core/frame_header.h"

namespace fabric {

enum class RoomShortage : uint8_t { none, payload, headers };

// The headers a frame's copies take: a copy to a final destination on the
// frame's starting VL, a copy to a deeper surrogate on the VL of the frame's
// level (mechanism 8).
struct HeaderDemand {
  uint8_t to_destinations = 0;
  uint8_t to_surrogates = 0;
};

// What a surrogate's egress asks before it hands a frame back to its own
// ingress: `copy` is the frame as its egress holds it (one level up).
class LoopRoom {
 public:
  virtual RoomShortage shortage(const FrameHeader& copy) const = 0;

 protected:
  ~LoopRoom() = default;
};

}  // namespace fabric
