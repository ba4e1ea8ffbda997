#pragma once
// End-to-end retransmission timers of a leaf's source ports (mechanism 10),
// as plain C++: one per copy sent, due a fixed timeout after it started. With
// one timeout for all, timers fall due in the order they were armed: a FIFO
// is the whole timer wheel. A copy acknowledged in time is not looked for;
// its timer is dropped when it falls due.
//
// Memory stays bounded by the copies in flight, not by the copies started
// within a timeout (5 M in 1 ms of the 640-port permutation): when the FIFO
// has grown to twice what it held after the last sweep, arm() sweeps out the
// timers of acknowledged copies (an acknowledged copy stays acknowledged).
// It keeps the one armed just before each timer it keeps, so that the
// owner's wake for a kept timer is still asked for when that one falls due,
// as it was when every timer stayed: same-time wakes keep their order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/core/ids.h"

namespace fabric {

class RetransmitTimers {
 public:
  // The FIFO is swept no sooner than at this many timers.
  static constexpr size_t kFirstSweep = 1024;

  explicit RetransmitTimers(Picos timeout) : timeout_(timeout) {}

  // A copy started at `now`. Returns true when no other timer was pending
  // (the owner must then wake at next_due()). `outstanding(port, voq,
  // copy_seq)` says whether a copy armed before is still unacknowledged; it
  // is asked only when the FIFO is swept.
  template <class Outstanding>
  bool arm(Picos now, int port, uint32_t voq, uint32_t copy_seq, Outstanding&& outstanding) {
    if (fifo_.size() >= sweep_at_) sweep(outstanding);
    push(now, port, voq, copy_seq);
    return pending() == 1;
  }
  bool empty() const { return pending() == 0; }
  Picos next_due() const { return fifo_[head_].due; }
  // Timers held, the swept-out ones excluded (for tests and bounds).
  size_t pending() const { return fifo_.size() - head_; }

  // Each timer due at `now`, oldest first, goes to expired(port, voq,
  // copy_seq), which returns true when the copy is still outstanding: the
  // timer is armed again from now.
  template <class Expired>
  void expire(Picos now, Expired&& expired) {
    while (head_ < fifo_.size() && fifo_[head_].due <= now) {
      const Timer t = fifo_[head_++];
      if (expired(t.port, t.voq, t.copy_seq)) push(now, t.port, t.voq, t.copy_seq);
    }
    if (head_ == fifo_.size()) {  // empty: start again at the front, keeping the capacity
      fifo_.clear();
      head_ = 0;
    }
  }

 private:
  struct Timer {
    Picos due;
    int port;
    uint32_t voq;
    uint32_t copy_seq;
  };
  void push(Picos now, int port, uint32_t voq, uint32_t copy_seq) {
    fifo_.push_back({now + timeout_, port, voq, copy_seq});
  }
  // Keeps, in order, the timers of outstanding copies and the one before
  // each; the last is kept as the one before the timer about to be armed.
  template <class Outstanding>
  void sweep(Outstanding& outstanding) {
    const size_t end = fifo_.size();
    size_t kept = 0;
    bool live = head_ < end && outstanding(fifo_[head_].port, fifo_[head_].voq, fifo_[head_].copy_seq);
    for (size_t i = head_; i < end; ++i) {
      const bool next_live = i + 1 == end || outstanding(fifo_[i + 1].port, fifo_[i + 1].voq, fifo_[i + 1].copy_seq);
      if (live || next_live) fifo_[kept++] = fifo_[i];
      live = next_live;
    }
    fifo_.resize(kept);
    head_ = 0;
    sweep_at_ = std::max(kFirstSweep, 2 * kept);
  }

  Picos timeout_;
  std::vector<Timer> fifo_;  // [head_, end) pending, in arming order
  size_t head_ = 0;
  size_t sweep_at_ = kFirstSweep;
};

}  // namespace fabric
