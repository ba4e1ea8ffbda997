#include "model/core/event_queue.h"

#include <algorithm>

#include "model/core/event_scheduler.h"
#include "model/core/sim_time.h"

namespace fabric {

EventQueue::EventQueue(EventScheduler& owner, const EventQueueShape& shape, int index)
    : index_(index), owner_(owner), wheel_(shape.bucket_bits, shape.wheel_bits, shape.slots_per_bucket) {
  std::fill(std::begin(inbox_earliest_), std::end(inbox_earliest_), std::numeric_limits<Picos>::max());
}

size_t EventQueue::pending() const {
  size_t n = wheel_.size();
  for (int w = 0; w < inbox_workers_; ++w) n += inboxes_[w].size();
  return n;
}

bool EventQueue::inbox_empty() const {
  for (int w = 0; w < inbox_workers_; ++w)
    if (!inboxes_[w].empty()) return false;
  return true;
}

Picos EventQueue::next_due() const {
  Picos due = wheel_.empty() ? std::numeric_limits<Picos>::max() : wheel_.next_due();
  for (int w = 0; w < inbox_workers_; ++w) due = std::min(due, inbox_earliest_[w]);
  return due;
}

void EventQueue::schedule_from_elsewhere(Picos due, Client& client, void* item) {
  if (serving_ != nullptr) {
    // Served already in this window, the other partition would see the
    // entry late: the model crossed partitions faster than the lookahead.
    if (due < owner_.window_end_) owner_.report_lookahead_violation(due);
    const int w = Worker::index();
    std::vector<InboxEntry>& inbox = inboxes_[w];
    inbox.push_back({{due, {&client, item}}, serving_->index_});
    __builtin_prefetch(&inbox.back() + 3, 1);  // where the pushes after the next go
    inbox_earliest_[w] = std::min(inbox_earliest_[w], due);
    return;
  }
  const Picos now = now_ps();
  if (due < now) due = now;
  wheel_.push(due, {&client, item});
  owner_.scheduled_outside_run(due);
}

void EventQueue::take_inbox() {
  // Each worker's list is in the order of the queues that worker served;
  // merged by queue, they are in the scheduler's order.
  if (inbox_workers_ == 1) {
    for (const InboxEntry& e : inboxes_[0]) wheel_.push(e.entry.due, e.entry.value);
  } else {
    size_t at[Worker::kMax] = {};
    for (;;) {
      int best = -1;
      for (int w = 0; w < inbox_workers_; ++w)
        if (at[w] < inboxes_[w].size() && (best < 0 || inboxes_[w][at[w]].from < inboxes_[best][at[best]].from))
          best = w;
      if (best < 0) break;
      const int from = inboxes_[best][at[best]].from;
      for (; at[best] < inboxes_[best].size() && inboxes_[best][at[best]].from == from; ++at[best])
        wheel_.push(inboxes_[best][at[best]].entry.due, inboxes_[best][at[best]].entry.value);
    }
  }
  for (int w = 0; w < inbox_workers_; ++w) {
    inboxes_[w].clear();
    inbox_earliest_[w] = std::numeric_limits<Picos>::max();
  }
}

void EventQueue::serve_before(Picos end) {
  serving_ = this;
  // Another queue schedules here only at `end` or later, so the wheel may
  // move on to the bucket that holds `end`.
  TimingWheel<Wake, PrefetchWake>::Entry e;
  while (wheel_.pop_before(end, e)) {
    ModelClock::set(e.due);
    ++served_;
    e.value.client->on_wake(e.value.item);
  }
  serving_ = nullptr;
}

}  // namespace fabric
