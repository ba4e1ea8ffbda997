#pragma once
// What a ring station needs from its host's traffic: when the next packet is
// created. The platform adapts traffic/'s PacketArrivals to it
// (platforms/ring/ring_host_arrivals.h), so model/ does not depend on
// traffic/ (as the CNA's FrameSource, model/cna/frame_source.h).
#include "model/core/ids.h"

namespace fabric::ring {

class PacketSource {
 public:
  virtual ~PacketSource() = default;
  // The next packet's creation time (kNever: no more).
  virtual Picos next() = 0;
};

}  // namespace fabric::ring
