#pragma once
// What every holder of a frame (or a copy of it) knows about the frame: the
// CNA's Ethernet frame, the leaf's stored frame, the egress's reassembled copy.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

struct FrameHeader {
  FrameId frame{};
  FlowId flow{};
  PortId src{};
  uint32_t bytes = 0;
  uint8_t priority = 0;
  Picos created = 0;  // at the source CNA
  uint8_t levels = 0;  // surrogate ports passed so far (deliveries.surrogate_levels)
  Mid mid{};           // a multicast frame's group: a surrogate looks its fanout up by it
};

}  // namespace fabric
