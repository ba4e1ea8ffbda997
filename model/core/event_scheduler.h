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
  // Items are messages whose hot fields start this far in (the protocol's
  // kMessageHotOffset; the core knows no protocol, the payload pool checks
  // that the two agree).
  static constexpr int kItemHotOffset = 120;

  class Client {
   public:
    virtual ~Client() = default;
    // Called at the time asked for, with the item given to schedule(); a
    // client ignores wakes it no longer wants.
    virtual void on_wake(void* item) = 0;
    // A wake is coming soon: prefetch what on_wake will touch beyond this
    // object and the item's first lines. Changes nothing.
    virtual void prefetch(const void* /*item*/) const {}
    // Called a bucket after prefetch(): what prefetch() brought in may now
    // be read to prefetch one level further.
    virtual void prefetch_deep(const void* /*item*/) const {}
  };

  explicit EventScheduler(sc_core::sc_module_name name);

  // Entries with equal times run in the order they were scheduled.
  // `item` rides with the entry (a message in flight, say): no queue of its
  // own at the client.
  void schedule(Picos due, Client& client, void* item = nullptr) {
    // While serving, the model time is the wheel's own (it serves nothing
    // earlier) and run() re-arms the kernel's event when it stops.
    if (running_) {
      wheel_.push(due, {&client, item});
      return;
    }
    schedule_outside_run(due, client, item);
  }
  // Simulates up to `end` (absolute): model entries due before it run.
  void run_until(Picos end);
  size_t pending() const { return wheel_.size(); }
  uint64_t served() const { return served_; }

 private:
  SC_HAS_PROCESS(EventScheduler);
  struct Wake {
    Client* client;
    void* item;
  };
  // Serving an entry touches the client object and the item's first cache
  // lines, then what the client's prefetch() names, then what its
  // prefetch_deep() names. At full scale almost every one of them is a cache
  // miss: asking for a whole bucket's at once lets them overlap, and asking
  // a bucket apart for each level lets each level find the one before it in
  // the cache.
  struct PrefetchWake {
    template <class Entry>
    static void on_bucket(int stage, const Entry* begin, const Entry* end) {
      switch (stage) {
        case 2:
          for (const Entry* e = begin; e != end; ++e) {
            __builtin_prefetch(e->value.client);
            if (const char* item = static_cast<const char*>(e->value.item)) {
              __builtin_prefetch(item + kItemHotOffset);
              __builtin_prefetch(item + kItemHotOffset + 64);
            }
          }
          break;
        case 1:
          for (const Entry* e = begin; e != end; ++e) e->value.client->prefetch(e->value.item);
          break;
        default:
          for (const Entry* e = begin; e != end; ++e) e->value.client->prefetch_deep(e->value.item);
      }
    }
  };
  void run();
  void schedule_outside_run(Picos due, Client& client, void* item);
  void notify_kernel(Picos due);

  TimingWheel<Wake, PrefetchWake> wheel_{8, 12};  // 256 ps buckets, 1 us ahead: the span of one hop
  Picos notified_for_ = std::numeric_limits<Picos>::max();
  Picos end_ = std::numeric_limits<Picos>::max();
  bool running_ = false;
  uint64_t served_ = 0;
  sc_core::sc_event event_;
};

}  // namespace fabric
