#pragma once
// What a leaf's units report as it happens, for whoever records it
// (LeafProbe). Plain C++: each unit holds a pointer, null when nothing
// listens; `k` is the port index of the leaf (LeafLayout). Drops, holds and
// PAUSE changes are rare next to the frames a unit moves.
#include <cstdint>

#include "model/core/drop_reason.h"
#include "model/core/ids.h"

namespace fabric {

class LeafObserver {
 public:
  virtual ~LeafObserver() = default;
  // The ingress unit dropped a frame arriving at port k (dst -1), or one
  // copy of it to dst, for `reason`.
  virtual void on_drop(int k, FrameId frame, FlowId flow, int64_t dst, DropReason reason, Picos now) = 0;
  // A lossless frame of `flow` without room waits at port k.
  virtual void on_hold(int k, FlowId flow, uint8_t priority, Picos now) = 0;
  // Port k's PAUSE of `priority` (the surrogate's: of a VL) started (stop)
  // or ended; `headers`: the pause is for lack of headers.
  virtual void on_pause(int k, int priority, bool stop, bool headers, Picos now) = 0;
  // Port k's retransmission timer fell due: a copy of `flow` to `target` is sent again.
  virtual void on_retransmission(int k, FlowId flow, PortId target, Picos now) = 0;
  // Port k's ingress (or egress) congestion point sent a CNM for `culprit`
  // with quantized feedback fb.
  virtual void on_cnm(int k, bool ingress, FlowId culprit, uint8_t fb, Picos now) = 0;
  // Port k's VOQ sync CAM suspended (or resumed) its VOQ for `target`.
  virtual void on_sync(int k, PortId target, bool suspended, Picos now) = 0;
};

}  // namespace fabric
