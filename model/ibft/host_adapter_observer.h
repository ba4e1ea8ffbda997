#pragma once
// What an IB fat tree's host adapter reports as it happens, for whoever
// records it (HostAdapterProbe). Plain C++: the adapter holds a pointer,
// null when nothing listens.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class HostAdapterObserver {
 public:
  virtual ~HostAdapterObserver() = default;
  // A packet of `flow` left the adapter at `sent`; sent -1: at the run's end
  // it was still queued (never sent).
  virtual void on_frame(FrameId frame, FlowId flow, uint32_t bytes, Picos created, Picos sent) = 0;
  // A packet was delivered to the host at `now`.
  virtual void on_delivery(FrameId frame, FlowId flow, Picos now, uint32_t bytes, Picos created) = 0;
};

}  // namespace fabric
