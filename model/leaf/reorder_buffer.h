#pragma once
// Egress reassembly for one (source port, VL): packets of a copy arrive out
// of order (they were sprayed over all uplinks); copies become ready strictly
// in the order the source sent them (copy_seq), once all their packets are in.
#include <bitset>
#include <cstdint>
#include <stdexcept>

#include "model/core/circular_queue.h"
#include "model/core/frame_header.h"
#include "model/core/ids.h"

namespace fabric {

struct CopyMeta : FrameHeader {
  uint16_t segments = 0;
};

class ReorderBuffer {
 public:
  // A 9216 B jumbo frame in the smallest allowed packets (64 B).
  static constexpr size_t kMaxSegments = 144;

  struct ReadyCopy {
    CopyMeta meta;
    Picos ready_at;  // when its last packet entered the egress buffer
  };

  // Returns true when one or more copies became ready.
  bool on_packet(uint32_t copy_seq, uint16_t index, const CopyMeta& meta, Picos entered_at);

  // Whether this packet arrived before: an end-to-end retransmission's
  // duplicate, to be dropped without taking buffer.
  bool has_packet(uint32_t copy_seq, uint16_t index) const {
    if (copy_seq < base_seq_) return true;
    const size_t slot = copy_seq - base_seq_;
    return slot < partial_.size() && partial_[slot].seen.test(index);
  }
  bool has_ready() const { return !ready_.empty(); }
  const ReadyCopy& front() const { return ready_.front(); }
  ReadyCopy pop();
  size_t partial_copies() const { return partial_.size(); }
  size_t ready_copies() const { return ready_.size(); }
  uint32_t expected_seq() const { return base_seq_; }

 private:
  struct Partial {
    CopyMeta meta;
    uint16_t received = 0;
    std::bitset<kMaxSegments> seen;  // duplicate detection
    Picos ready_at = 0;
  };
  uint32_t base_seq_ = 0;  // copy_seq of partial_.front()
  // A few copies in reassembly at a time, usually: inline rings keep them
  // on the buffer's own cache lines.
  CircularQueue<Partial, 4> partial_;
  CircularQueue<ReadyCopy, 4> ready_;
};

}  // namespace fabric
