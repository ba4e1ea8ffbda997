#pragma once
// What a backplane end station reports as it happens, for whoever records
// it (EndStationProbe). Plain C++: the station holds a pointer, null when
// nothing listens.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class EndStationObserver {
 public:
  virtual ~EndStationObserver() = default;
  // A frame of `flow` left the MAC at `sent`; sent -1: at the run's end it
  // was still in the NIC or MAC buffer (never sent).
  virtual void on_frame(FrameId frame, FlowId flow, uint32_t bytes, Picos created, Picos sent) = 0;
  // A frame was delivered to the station's sink at `now`.
  virtual void on_delivery(FrameId frame, FlowId flow, Picos now, uint32_t bytes, Picos created) = 0;
  // An 802.3x PAUSE frame arrived: the link stops (or, XON, goes again).
  virtual void on_pause(bool stop, Picos now) = 0;
};

}  // namespace fabric
