#pragma once
// What a CNA needs from a traffic generator: when the next frame of a flow
// is created, and that frame. The platform adapts traffic/ generators to it,
// so model/ does not depend on traffic/.
#include "model/core/frame_header.h"
#include "model/core/ids.h"

namespace fabric {

struct NewFrame {
  Picos created;
  uint64_t dst_mac;  // a CNA's MAC (unicast) or a group MAC (multicast)
  uint32_t bytes;
  FlowId flow;           // the flow it is recorded under
  uint32_t message = 0;  // a job's frame: FrameHeader::message
};

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  virtual FlowId flow() const = 0;
  virtual int priority() const = 0;
  virtual Picos next_time() const = 0;  // kNever when finished
  virtual NewFrame pop(Picos now) = 0;  // requires next_time() <= now
  virtual void defer_to(Picos t) = 0;   // its queue was full until t
};

// What a CNA tells of the job frames it receives (FrameHeader::message set).
class MessageListener {
 public:
  virtual ~MessageListener() = default;
  // Returns whether frames may now be due sooner (the CNA then looks again).
  virtual bool arrived(const FrameHeader& frame, Picos now) = 0;
};

}  // namespace fabric
