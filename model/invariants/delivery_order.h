#pragma once
// "Delivered once and in order" (issue 50): the fabric forwards a source's
// copies to a destination in the order the source sent them (fabric.md:
// egress buffers reorder and forward in order), and end-to-end recovery
// filters its duplicates. Each frame leaves its CNA numbered per priority
// (FrameHeader::sent_seq); a destination keeps, per source, priority and
// group (unicast, or a multicast group: each is one path), the number of
// the last frame delivered, and a frame numbered at or below it was
// delivered twice or overtook a later one.
#include <cstdint>
#include <unordered_map>

#include "model/core/ids.h"

namespace fabric {

class DeliveryOrder {
 public:
  // The number of the frame delivered last of this source, priority and
  // group, or 0; records `sent_seq` as the new last when it is above it.
  uint32_t deliver(PortId src, uint8_t priority, bool multicast, Mid mid, uint32_t sent_seq) {
    const uint64_t key = uint64_t{raw(src)} << 36 | uint64_t{priority} << 33 | uint64_t{multicast} << 32 | raw(mid);
    if (!last_ || last_key_ != key) {
      last_ = &seen_[key];
      last_key_ = key;
    }
    const uint32_t previous = *last_;
    if (sent_seq > previous) *last_ = sent_seq;
    return previous;
  }

 private:
  std::unordered_map<uint64_t, uint32_t> seen_;
  uint64_t last_key_ = 0;
  uint32_t* last_ = nullptr;  // the entry of last_key_ (references into an unordered_map stay valid)
};

}  // namespace fabric
