#pragma once
// What a CNA reports as it happens, for whoever records it (CnaProbe).
// Plain C++: the CNA holds a pointer, null when nothing listens.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class CnaObserver {
 public:
  virtual ~CnaObserver() = default;
  // A frame of `flow` left the CNA at `sent`; sent -1: at the run's end it
  // was still queued (never sent).
  virtual void on_frame(FrameId frame, FlowId flow, uint32_t bytes, uint8_t priority, Picos created, Picos sent) = 0;
  // A copy of `frame` was delivered here at `now`, having looped through
  // `levels` surrogates.
  virtual void on_delivery(FrameId frame, FlowId flow, Picos now, int levels, uint32_t bytes, Picos created) = 0;
  // The end-to-end transport sent a frame of `flow` to `dst` again.
  virtual void on_retransmission(FlowId flow, PortId dst, Picos now) = 0;
  // A rate limiter's rate for `flow` changed to `gbps`.
  virtual void on_rate_change(FlowId flow, double gbps, Picos now) = 0;
};

}  // namespace fabric
