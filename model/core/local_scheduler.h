#pragma once
// One module's event queue: its ports and internal steps ask to be woken at
// a time; a small heap orders them and one sc_event + SC_METHOD serves them.
// The kernel then holds one pending event per module instead of one per
// port, which keeps its (large, cache-cold) timed-event heap small.
// Entries with equal times run in the order they were scheduled.
#include <cstdint>
#include <limits>
#include <systemc>
#include <vector>

#include "model/core/ids.h"

namespace fabric {

class LocalScheduler : public sc_core::sc_module {
 public:
  class Client {
   public:
    virtual ~Client() = default;
    // Called at the time asked for; a client ignores wakes it no longer wants.
    virtual void on_wake(uint32_t tag) = 0;
  };

  explicit LocalScheduler(sc_core::sc_module_name name);

  void schedule(Picos due, Client& client, uint32_t tag = 0);
  size_t pending() const { return heap_.size(); }

 private:
  SC_HAS_PROCESS(LocalScheduler);
  struct Entry {
    Picos due;
    uint64_t seq;
    Client* client;
    uint32_t tag;
    bool before(const Entry& o) const { return due != o.due ? due < o.due : seq < o.seq; }
  };
  void run();
  void push(const Entry& e);
  Entry pop();

  std::vector<Entry> heap_;
  uint64_t seq_ = 0;
  Picos notified_for_ = std::numeric_limits<Picos>::max();
  bool running_ = false;
  sc_core::sc_event event_;
};

}  // namespace fabric
