#pragma once
// The arrivals of one link, oldest first. A link rarely has more than a few
// messages on the wire, so the first kInline live in the queue object itself,
// next to its indices (one cache line fewer per message than a deque, whose
// storage lives elsewhere); more overflow to a deque, FIFO order kept.
#include <array>
#include <cstdint>
#include <deque>

#include "model/core/ids.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

class ArrivalQueue {
 public:
  struct Arrival {
    Picos at;
    Payload* payload;
  };

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_ + overflow_.size(); }
  const Arrival& front() const { return ring_[head_]; }

  void push(const Arrival& a) {
    if (size_ < kInline && overflow_.empty()) {
      ring_[(head_ + size_) % kInline] = a;
      ++size_;
    } else {
      overflow_.push_back(a);
    }
  }
  void pop() {
    head_ = (head_ + 1) % kInline;
    --size_;
    if (!overflow_.empty()) {  // the oldest overflowed arrival moves in behind the ring's last
      ring_[(head_ + size_) % kInline] = overflow_.front();
      overflow_.pop_front();
      ++size_;
    }
  }

 private:
  static constexpr uint32_t kInline = 8;
  uint32_t head_ = 0;
  uint32_t size_ = 0;  // in the ring
  std::array<Arrival, kInline> ring_{};
  std::deque<Arrival> overflow_;
};

}  // namespace fabric
