#pragma once
// The order in which an InfiniBand switch output serves the inputs that
// want it (platforms.md, E13): first come, first served by the time each
// packet was routed, ties to the lower input port. Plain C++.
#include <cstdint>
#include <deque>

#include "model/core/ids.h"

namespace fabric {

class FcfsQueue {
 public:
  // An input routed at `t`, never earlier than any already queued.
  void push(Picos t, int input) {
    auto it = queue_.end();
    while (it != queue_.begin() && (it - 1)->t == t && (it - 1)->input > input) --it;
    queue_.insert(it, {t, input});
  }
  bool empty() const { return queue_.empty(); }
  size_t size() const { return queue_.size(); }
  int pop() {
    const int input = queue_.front().input;
    queue_.pop_front();
    return input;
  }

 private:
  struct Entry {
    Picos t;
    int input;
  };
  std::deque<Entry> queue_;
};

}  // namespace fabric
