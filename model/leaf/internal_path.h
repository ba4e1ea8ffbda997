#pragma once
// Messages that stay inside a leaf for a while: control messages between two
// of its ports, and local data packets, each due at its own time. Different
// latencies can reorder them, so they wait in a heap (ties in arrival order,
// for determinism) served by one Wakeup.
#include <functional>
#include <queue>
#include <vector>

#include "model/core/sim_time.h"
#include "model/core/wakeup.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

class InternalPath {
 public:
  InternalPath(EventQueue& events, std::function<void(Payload&)> handler)
      : handler_(std::move(handler)), wakeup_(events, [this] { deliver_due(); }) {}

  void push(Picos due, Payload& message) {
    heap_.push({due, seq_++, &message});
    wakeup_.at(due);
  }

 private:
  struct Entry {
    Picos due;
    uint64_t seq;
    Payload* message;
    bool operator>(const Entry& o) const { return due != o.due ? due > o.due : seq > o.seq; }
  };
  void deliver_due() {
    const Picos now = now_ps();
    while (!heap_.empty() && heap_.top().due <= now) {
      Payload* m = heap_.top().message;
      heap_.pop();
      handler_(*m);
    }
    if (!heap_.empty()) wakeup_.at(heap_.top().due);
  }

  std::function<void(Payload&)> handler_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  uint64_t seq_ = 0;
  Wakeup wakeup_;
};

}  // namespace fabric
