#pragma once
// What a link's units (RetrySender, LinkReceiver) report as it happens, for
// whoever records it (LinkProbe). Plain C++: a unit holds a pointer, null
// when nothing listens, so a link that is not recorded pays a test of the
// pointer, and only where a drop or a replay happens (rare events).
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class LinkObserver {
 public:
  virtual ~LinkObserver() = default;
  // A go-back-N replay of `count` messages started at `now` (a NAK or a timeout).
  virtual void on_replay(Picos now, uint64_t count) = 0;
  // Without link retry, a corrupted data message dropped at `port` (the
  // packet's source port, or the frame's receiving port): copy of `frame`
  // of `flow` to `dst` (-1: the whole frame).
  virtual void on_drop(FrameId frame, FlowId flow, PortId port, int64_t dst, Picos now) = 0;
};

}  // namespace fabric
