#pragma once
// The headers of the frames on a ring, in slots reused as frames leave it:
// a frame's message on a link carries its slot (the transaction's address),
// and every station it passes reads and updates the header in place. No
// allocation once the ring has warmed up.
#include <cstdint>
#include <vector>

#include "model/ring/ring_frame.h"

namespace fabric::ring {

class RingFrameStore {
 public:
  uint64_t put(const RingFrame& f) {
    if (free_.empty()) {
      slots_.push_back(f);
      return slots_.size() - 1;
    }
    const uint64_t slot = free_.back();
    free_.pop_back();
    slots_[slot] = f;
    return slot;
  }
  RingFrame& at(uint64_t slot) { return slots_[slot]; }
  void release(uint64_t slot) { free_.push_back(slot); }
  size_t in_use() const { return slots_.size() - free_.size(); }

 private:
  std::vector<RingFrame> slots_;
  std::vector<uint64_t> free_;
};

}  // namespace fabric::ring
