#pragma once
// What the backplane's switch reports as it happens, for whoever records it
// (BackplaneSwitchProbe). Plain C++: the switch holds a pointer, null when
// nothing listens.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class BackplaneSwitchObserver {
 public:
  virtual ~BackplaneSwitchObserver() = default;
  // A frame from input `in` did not fit the shared memory: discarded whole.
  virtual void on_discard(int in, FrameId frame, FlowId flow, Picos now) = 0;
  // The 802.3x controller sent XOFF (or XON) with `occupancy` bytes held.
  virtual void on_pause(bool xoff, uint64_t occupancy, Picos now) = 0;
};

}  // namespace fabric
