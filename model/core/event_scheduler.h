#pragma once
// The fabric's event queue: every port, crossbar input and internal step of
// every module asks to be woken at a time, and one timing wheel orders them
// all. The SystemC kernel sees a single sc_event and SC_METHOD.
//
// Temporal decoupling: when woken, the scheduler runs its entries ahead of
// the kernel's time up to the kernel's next pending activity (or the end set
// by run_until), so the kernel is not entered once per model event. While it
// runs, now_ps() is the model time of the entry being served and annotated
// TLM delays are relative to it. Processes outside the model that interact
// with it meet it at kernel activity, where both times agree: drive the
// simulation with run_until(), not a bare sc_start(), so the model does not
// run past the end of the simulated time.
#include <cstdint>
#include <limits>
#include <systemc>

#include "model/core/ids.h"
#include "model/core/timing_wheel.h"

namespace fabric {

class EventScheduler : public sc_core::sc_module {
 public:
  class Client {
   public:
    virtual ~Client() = default;
    // Called at the time asked for; a client ignores wakes it no longer wants.
    virtual void on_wake(uint32_t tag) = 0;
  };

  explicit EventScheduler(sc_core::sc_module_name name);

  // Entries with equal times run in the order they were scheduled.
  void schedule(Picos due, Client& client, uint32_t tag = 0);
  // Simulates up to `end` (absolute): model entries due before it run.
  void run_until(Picos end);
  size_t pending() const { return wheel_.size(); }
  uint64_t served() const { return served_; }

 private:
  SC_HAS_PROCESS(EventScheduler);
  struct Wake {
    Client* client;
    uint32_t tag;
  };
  void run();
  void notify_kernel(Picos due);

  TimingWheel<Wake> wheel_;
  Picos notified_for_ = std::numeric_limits<Picos>::max();
  Picos end_ = std::numeric_limits<Picos>::max();
  bool running_ = false;
  uint64_t served_ = 0;
  sc_core::sc_event event_;
};

}  // namespace fabric
