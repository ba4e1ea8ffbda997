#pragma once
// End-to-end retransmission timers of a leaf's source ports (mechanism 10),
// as plain C++: one per copy sent, due a fixed timeout after it started. With
// one timeout for all, timers fall due in the order they were armed: a FIFO
// is the whole timer wheel. A copy acknowledged in time is not looked for;
// its timer is dropped when it falls due.
#include <cstdint>
#include <deque>

#include "model/core/ids.h"

namespace fabric {

class RetransmitTimers {
 public:
  explicit RetransmitTimers(Picos timeout) : timeout_(timeout) {}

  // A copy started at `now`. Returns true when no other timer was pending
  // (the owner must then wake at next_due()).
  bool arm(Picos now, int port, uint32_t voq, uint32_t copy_seq) {
    fifo_.push_back({now + timeout_, port, voq, copy_seq});
    return fifo_.size() == 1;
  }
  bool empty() const { return fifo_.empty(); }
  Picos next_due() const { return fifo_.front().due; }

  // Each timer due at `now`, oldest first, goes to expired(port, voq,
  // copy_seq), which returns true when the copy is still outstanding: the
  // timer is armed again from now.
  template <class Expired>
  void expire(Picos now, Expired&& expired) {
    while (!fifo_.empty() && fifo_.front().due <= now) {
      const Timer t = fifo_.front();
      fifo_.pop_front();
      if (expired(t.port, t.voq, t.copy_seq)) arm(now, t.port, t.voq, t.copy_seq);
    }
  }

 private:
  struct Timer {
    Picos due;
    int port;
    uint32_t voq;
    uint32_t copy_seq;
  };
  Picos timeout_;
  std::deque<Timer> fifo_;
};

}  // namespace fabric
