#pragma once
// A frame a CNA holds before (or, for the end-to-end transport, after) it
// sends it: what it needs to build the Ethernet frame again.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

struct QueuedFrame {
  FrameId id;
  FlowId flow;
  uint64_t dst_mac;
  uint32_t bytes;
  Picos created;
  uint32_t message = 0;  // a job's frame: FrameHeader::message
};

}  // namespace fabric
