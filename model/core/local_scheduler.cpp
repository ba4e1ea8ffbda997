#include "model/core/local_scheduler.h"

#include "model/core/sim_time.h"

namespace fabric {

LocalScheduler::LocalScheduler(sc_core::sc_module_name name) : sc_module(name) {
  SC_METHOD(run);
  sensitive << event_;
  dont_initialize();
}

void LocalScheduler::schedule(Picos due, Client& client, uint32_t tag) {
  const Picos now = now_ps();
  if (due < now) due = now;
  push({due, seq_++, &client, tag});
  if (running_ || due >= notified_for_) return;  // run() re-arms, or an earlier wake is set
  notified_for_ = due;
  if (due == now) {
    event_.notify(sc_core::SC_ZERO_TIME);
  } else {
    event_.notify(from_ps(due - now));
  }
}

void LocalScheduler::run() {
  const Picos now = now_ps();
  notified_for_ = std::numeric_limits<Picos>::max();
  running_ = true;
  while (!heap_.empty() && heap_.front().due <= now) {
    const Entry e = pop();
    e.client->on_wake(e.tag);
  }
  running_ = false;
  if (!heap_.empty()) {
    notified_for_ = heap_.front().due;
    event_.notify(from_ps(notified_for_ - now));
  }
}

void LocalScheduler::push(const Entry& e) {
  heap_.push_back(e);
  size_t i = heap_.size() - 1;
  while (i > 0) {
    const size_t parent = (i - 1) / 2;
    if (!heap_[i].before(heap_[parent])) break;
    std::swap(heap_[i], heap_[parent]);
    i = parent;
  }
}

LocalScheduler::Entry LocalScheduler::pop() {
  const Entry top = heap_.front();
  heap_.front() = heap_.back();
  heap_.pop_back();
  size_t i = 0;
  const size_t n = heap_.size();
  for (;;) {
    const size_t l = 2 * i + 1, r = l + 1;
    size_t best = i;
    if (l < n && heap_[l].before(heap_[best])) best = l;
    if (r < n && heap_[r].before(heap_[best])) best = r;
    if (best == i) break;
    std::swap(heap_[i], heap_[best]);
    i = best;
  }
  return top;
}

}  // namespace fabric
