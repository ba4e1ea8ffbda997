#pragma once
// The backplane's switch fabric (platforms.md, E12), as plain C++: one
// memory shared by all ports, a FIFO queue per output, store and forward. A
// frame is admitted whole when the memory has room for it, else discarded
// whole; its bytes are freed when it leaves its output. Occupancy is the
// total the 802.3x controller watches.
#include <cstdint>
#include <vector>

#include "model/core/buffer_pool.h"
#include "model/core/circular_queue.h"

namespace fabric {

// A frame in the switch: its bytes and the shell's handle for the rest.
struct SwitchedFrame {
  uint64_t handle = 0;
  uint32_t bytes = 0;
  int in_port = -1;
};

class SharedMemorySwitch {
 public:
  SharedMemorySwitch(int ports, uint32_t memory_bytes);

  // A frame, fully received, for output `out`: false when it does not fit
  // (discarded whole; counted).
  bool admit(int out, const SwitchedFrame& frame);
  bool empty(int out) const { return queues_[static_cast<size_t>(out)].empty(); }
  const SwitchedFrame& head(int out) const { return queues_[static_cast<size_t>(out)].front(); }
  // The head of `out` leaves: its bytes are free again.
  SwitchedFrame pop(int out);

  uint32_t occupancy() const { return memory_.used(); }
  uint32_t peak() const { return memory_.peak(); }
  uint32_t memory() const { return memory_.capacity(); }
  uint64_t discards() const { return discards_; }
  uint64_t frames() const { return frames_; }  // held, all outputs together
  int ports() const { return static_cast<int>(queues_.size()); }

 private:
  BufferPool memory_;
  std::vector<CircularQueue<SwitchedFrame, 16>> queues_;
  uint64_t discards_ = 0;
  uint64_t frames_ = 0;
};

}  // namespace fabric
