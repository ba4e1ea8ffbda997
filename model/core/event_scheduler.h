#pragma once
// The model's event scheduler: the SystemC shell that serves the event
// queues of the model's partitions. The kernel sees a single sc_event and
// SC_METHOD.
//
// Temporal decoupling: when woken, the scheduler serves entries ahead of the
// kernel's time up to the kernel's next pending activity (or the end set by
// run_until), so the kernel is not entered once per model event. While it
// serves, now_ps() is the model time of the entry being served and annotated
// TLM delays are relative to it. Processes outside the model that interact
// with it meet it at kernel activity, where both times agree: drive the
// simulation with run_until(), not a bare sc_start(), so the model does not
// run past the end of the simulated time.
//
// Partitions: modules that interact only through links whose propagation
// delay is at least the lookahead L may have queues of their own. The
// scheduler then serves time windows [t, t + L), t the earliest entry of
// any queue, one queue after the other: nothing a queue does in a window
// can reach another queue before the window ends. A window of one queue
// touches only that partition's state, which stays in the cache, instead of
// a time-ordered walk over the state of the whole fabric. Equal times keep
// their scheduling order within a queue; the order of queues is fixed, so a
// run is deterministic.
//
// Threads: with set_threads(n > 1) the queues of a window are served by n
// worker threads (queue i by worker i mod n; worker 0 is the SystemC
// thread). What a queue schedules for another during a window waits in a
// per-worker inbox and joins the other's wheel at the start of the next
// window, merged in the order of the queues: the same order for any number
// of threads, so the run is the same. Window-end hooks run on the SystemC
// thread once every worker is done.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <systemc>
#include <vector>

#include "model/core/event_queue.h"
#include "model/core/ids.h"
#include "model/core/worker_pool.h"

namespace fabric {

class EventScheduler : public sc_core::sc_module {
 public:
  using Client = EventClient;

  // With one queue (shaped `shape`), queue(); add partitions with add_queue().
  explicit EventScheduler(sc_core::sc_module_name name, const EventQueueShape& shape = {});
  ~EventScheduler() override;

  // The first queue, the only one of an unpartitioned model.
  EventQueue& queue() { return *queues_.front(); }
  // A queue of its own for a further partition.
  EventQueue& add_queue(const EventQueueShape& shape);
  // The shortest time in which anything one queue serves can reach another
  // (at least 1 ps); 1 ps until set, which is right for any model whose
  // partitions interact after a positive delay.
  void set_lookahead(Picos lookahead);
  // Serve the queues of a window on this many threads (1: the SystemC
  // thread alone). Set once the queues are added.
  void set_threads(int threads);
  int threads() const;
  // Work for the end of every time window, when every queue stands at the
  // window's end (work deferred from inside the window, in one pass).
  void add_window_end_hook(std::function<void()> hook) { window_end_hooks_.push_back(std::move(hook)); }

  // Schedules on the first queue.
  void schedule(Picos due, Client& client, void* item = nullptr) { queue().schedule(due, client, item); }
  // Simulates up to `end` (absolute): model entries due before it run.
  void run_until(Picos end);
  size_t pending() const;
  uint64_t served() const;
  // Where the model stopped for a StopRequest: every entry due before it was
  // served, none after. kNoEntry while it has not stopped.
  Picos stopped_at() const { return stopped_at_; }
  bool stopped() const { return stopped_at_ != kNoEntry; }
  size_t queues() const { return queues_.size(); }

 private:
  friend class EventQueue;
  SC_HAS_PROCESS(EventScheduler);
  void run();
  // The earliest entry of any queue, or kNoEntry.
  Picos earliest_due();
  void notify_kernel(Picos due);
  void scheduled_outside_run(Picos due);
  void report_lookahead_violation(Picos due) const;
  // Takes every queue's inbox, then serves every queue up to `window_end`.
  void serve_window(Picos window_end);

  static constexpr Picos kNoEntry = std::numeric_limits<Picos>::max();
  std::vector<std::unique_ptr<EventQueue>> queues_;
  std::vector<std::function<void()>> window_end_hooks_;
  std::unique_ptr<WorkerPool> workers_;  // with more than one thread
  Picos lookahead_ = 1;
  Picos notified_for_ = kNoEntry;
  Picos end_ = kNoEntry;
  Picos stopped_at_ = kNoEntry;
  Picos window_end_ = 0;  // of the window under service
  sc_core::sc_event event_;
};

}  // namespace fabric
