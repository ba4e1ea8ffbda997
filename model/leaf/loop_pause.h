#pragma once
// Fabric-internal PAUSE at a surrogate port (mechanism 5, surrogate side),
// as plain C++: which VLs are paused, from what the surrogate's egress
// reported when it last tried to hand a frame back. A VL is paused while a
// frame of it is held back for want of room in the surrogate's ingress pool
// of that VL, unless a frame of that VL is handed back now.
#include <bitset>

#include "model/core/ids.h"

namespace fabric {

class LoopPause {
 public:
  // `blocked`: the VLs that held a frame back; `going`: the VL of the frame
  // handed back now, -1 for none. Calls changed(vl, paused) for each VL
  // whose state changes, lowest VL first.
  template <class Changed>
  void update(const std::bitset<kVls>& blocked, int going, Changed&& changed) {
    if (blocked.none() && paused_.none()) return;
    for (int v = 0; v < kVls; ++v) {
      const bool held = blocked.test(v) && v != going;
      if (held == paused_.test(v)) continue;
      paused_.set(v, held);
      changed(v, held);
    }
  }
  bool paused(int vl) const { return paused_.test(vl); }

 private:
  std::bitset<kVls> paused_;
};

}  // namespace fabric
