#include "model/core/event_queue.h"

#include <algorithm>

#include "model/core/event_scheduler.h"
#include "model/core/sim_time.h"

namespace fabric {

EventQueue::EventQueue(EventScheduler& owner, const EventQueueShape& shape)
    : serving_(&owner.serving_), owner_(owner),
      wheel_(shape.bucket_bits, shape.wheel_bits, shape.slots_per_bucket) {}

void EventQueue::schedule_from_elsewhere(Picos due, Client& client, void* item) {
  if (*serving_ != nullptr) {
    // Served already in this window, the other partition would see the
    // entry late: the model crossed partitions faster than the lookahead.
    if (due < owner_.window_end_) owner_.report_lookahead_violation(due);
    inbox_.push_back({due, {&client, item}});
    __builtin_prefetch(&inbox_.back() + 3, 1);  // where the pushes after the next go
    inbox_earliest_ = std::min(inbox_earliest_, due);
    return;
  }
  const Picos now = now_ps();
  if (due < now) due = now;
  wheel_.push(due, {&client, item});
  owner_.scheduled_outside_run(due);
}

void EventQueue::take_inbox() {
  for (const auto& e : inbox_) wheel_.push(e.due, e.value);
  inbox_.clear();
  inbox_earliest_ = std::numeric_limits<Picos>::max();
}

void EventQueue::serve_before(Picos end) {
  if (!inbox_.empty()) take_inbox();
  // Another queue schedules here only at `end` or later, so the wheel may
  // move on to the bucket that holds `end`.
  TimingWheel<Wake, PrefetchWake>::Entry e;
  while (wheel_.pop_before(end, e)) {
    ModelClock::set(e.due);
    ++served_;
    e.value.client->on_wake(e.value.item);
  }
}

}  // namespace fabric
