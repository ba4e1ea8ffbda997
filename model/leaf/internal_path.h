#pragma once
// Messages that stay inside a leaf for a while: control messages between two
// of its ports, or arriving from the fabric on their way to a port, and
// local data packets, each due at its own time. Each rides on an entry of
// the leaf's event queue, which serves equal times in the order they were
// scheduled: no queue of its own.
#include <functional>

#include "model/core/event_queue.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

class InternalPath final : public EventQueue::Client {
 public:
  InternalPath(EventQueue& events, std::function<void(Payload&)> handler)
      : events_(events), handler_(std::move(handler)) {}

  void push(Picos due, Payload& message) { events_.schedule(due, *this, &message); }

  void on_wake(void* item) override { handler_(*static_cast<Payload*>(item)); }

 private:
  EventQueue& events_;
  std::function<void(Payload&)> handler_;
};

}  // namespace fabric
