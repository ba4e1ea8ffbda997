#pragma once
// When a frame's bytes reach a port. A link with a concurrent header (the
// CNA-leaf link: the frame's VL and destination travel beside its payload)
// delivers a frame at its first byte, so the port can look it up and
// request credit while the rest is still arriving; the frame then carries
// when its first and last bytes arrive. Zero times mean the frame was whole
// when it was delivered (a plain link, or a frame handed back inside a leaf).
#include <algorithm>
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

struct FrameArrival {
  Picos first_byte = 0;
  Picos last_byte = 0;

  // When the frame's first `end_byte` bytes are in (bytes arrive at a
  // constant rate between the first and the last).
  Picos bytes_in_at(uint32_t end_byte, uint32_t frame_bytes) const {
    if (last_byte <= first_byte || end_byte >= frame_bytes) return last_byte;
    return first_byte + (last_byte - first_byte) * static_cast<Picos>(end_byte) / static_cast<Picos>(frame_bytes);
  }
  // When packet `index` of `packet_bytes` is complete in the ingress buffer:
  // as soon as its own bytes are in (cut_through), or with the whole frame.
  Picos packet_in_at(uint16_t index, uint32_t packet_bytes, uint32_t frame_bytes, bool cut_through) const {
    if (!cut_through) return last_byte;
    const uint32_t end = std::min<uint32_t>((static_cast<uint32_t>(index) + 1) * packet_bytes, frame_bytes);
    return bytes_in_at(end, frame_bytes);
  }
};

}  // namespace fabric
