#include "model/core/event_scheduler.h"

#include <algorithm>

#include "model/core/sim_time.h"

namespace fabric {

EventScheduler::EventScheduler(sc_core::sc_module_name name) : sc_module(name) {
  SC_METHOD(run);
  sensitive << event_;
  dont_initialize();
}

void EventScheduler::schedule_outside_run(Picos due, Client& client, void* item) {
  const Picos now = now_ps();
  if (due < now) due = now;
  wheel_.push(due, {&client, item});
  if (due < notified_for_) notify_kernel(due);
}

void EventScheduler::notify_kernel(Picos due) {
  notified_for_ = due;
  const Picos kernel_now = to_ps(sc_core::sc_time_stamp());
  event_.notify(from_ps(std::max(due, kernel_now) - kernel_now));
}

void EventScheduler::run_until(Picos end) {
  end_ = end;
  const Picos kernel_now = to_ps(sc_core::sc_time_stamp());
  if (end > kernel_now) sc_core::sc_start(from_ps(end - kernel_now));
}

void EventScheduler::run() {
  const Picos kernel_now = to_ps(sc_core::sc_time_stamp());
  // Entries before the kernel's next activity cannot interact with anything
  // outside the model: serve them now.
  const uint64_t next_activity =
      sc_core::sc_time_stamp().value() + sc_core::sc_time_to_pending_activity().value();
  const Picos limit = next_activity > static_cast<uint64_t>(end_) ? end_ : static_cast<Picos>(next_activity);
  notified_for_ = std::numeric_limits<Picos>::max();
  running_ = true;
  while (!wheel_.empty()) {
    const Picos due = wheel_.top().due;
    if (due > kernel_now && due >= limit) break;
    const Wake w = wheel_.pop().value;
    ModelClock::set(due);
    ++served_;
    w.client->on_wake(w.item);
  }
  ModelClock::release();
  running_ = false;
  if (!wheel_.empty()) notify_kernel(wheel_.top().due);
}

}  // namespace fabric
