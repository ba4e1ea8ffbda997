#include "model/core/event_queue.h"

#include <algorithm>

#include "model/core/event_scheduler.h"
#include "model/core/sim_time.h"

namespace fabric {

EventQueue::EventQueue(EventScheduler& owner, const EventQueueShape& shape, int index)
    : index_(index), owner_(owner), wheel_(shape.bucket_bits, shape.wheel_bits, shape.slots_per_bucket) {}

size_t EventQueue::pending() const {
  size_t n = wheel_.size();
  for (int w = 0; w < inbox_workers_; ++w) n += inboxes_[w].entries.size();
  return n;
}

bool EventQueue::inbox_empty() const {
  for (int w = 0; w < inbox_workers_; ++w)
    if (!inboxes_[w].entries.empty()) return false;
  return true;
}

Picos EventQueue::next_due() const {
  Picos due = wheel_.empty() ? std::numeric_limits<Picos>::max() : wheel_.next_due();
  for (int w = 0; w < inbox_workers_; ++w) due = std::min(due, inboxes_[w].earliest);
  return due;
}

void EventQueue::schedule_from_elsewhere(Picos due, Client& client, void* item) {
  if (serving_ != nullptr) {
    // Served already in this window, the other partition would see the
    // entry late: the model crossed partitions faster than the lookahead.
    if (due < serving_end_) owner_.report_lookahead_violation(due);
    Inbox& inbox = inboxes_[Worker::index()];
    inbox.entries.push_back({{due, {&client, item}}, serving_index_});
    __builtin_prefetch(&inbox.entries.back() + 3, 1);  // where the pushes after the next go
    inbox.earliest = std::min(inbox.earliest, due);
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
    for (const InboxEntry& e : inboxes_[0].entries) wheel_.push(e.entry.due, e.entry.value);
  } else {
    size_t at[Worker::kMax] = {};
    for (;;) {
      int best = -1;
      for (int w = 0; w < inbox_workers_; ++w) {
        const std::vector<InboxEntry>& in = inboxes_[w].entries;
        if (at[w] < in.size() && (best < 0 || in[at[w]].from < inboxes_[best].entries[at[best]].from)) best = w;
      }
      if (best < 0) break;
      const std::vector<InboxEntry>& in = inboxes_[best].entries;
      const int from = in[at[best]].from;
      for (; at[best] < in.size() && in[at[best]].from == from; ++at[best])
        wheel_.push(in[at[best]].entry.due, in[at[best]].entry.value);
    }
  }
  for (int w = 0; w < inbox_workers_; ++w) {
    inboxes_[w].entries.clear();
    inboxes_[w].earliest = std::numeric_limits<Picos>::max();
  }
}

void EventQueue::serve_before(Picos end) {
  // Reset however the service ends: a broken invariant thrown from a wake
  // leaves through here, and the thread then records the failure straight
  // to the database, not into the partition's buffer.
  struct Served {
    ~Served() { serving_ = nullptr; }
  } served;
  serving_ = this;
  serving_index_ = index_;
  serving_end_ = end;
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
