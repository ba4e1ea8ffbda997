#include "model/core/event_scheduler.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "model/core/line_census.h"
#include "model/core/sim_time.h"
#include "model/core/stop_request.h"

namespace fabric {

EventScheduler::EventScheduler(sc_core::sc_module_name name, const EventQueueShape& shape) : sc_module(name) {
  add_queue(shape);
  SC_METHOD(run);
  sensitive << event_;
  dont_initialize();
}

EventScheduler::~EventScheduler() = default;

EventQueue& EventScheduler::add_queue(const EventQueueShape& shape) {
  queues_.push_back(std::make_unique<EventQueue>(*this, shape, static_cast<int>(queues_.size())));
  queues_.back()->inbox_workers_ = threads();
  return *queues_.back();
}

void EventScheduler::set_threads(int threads) {
  threads = std::max(1, std::min(threads, Worker::kMax));
  workers_ = threads > 1 ? std::make_unique<WorkerPool>(threads) : nullptr;
  for (const auto& q : queues_) q->inbox_workers_ = threads;
}

int EventScheduler::threads() const { return workers_ ? workers_->size() : 1; }

void EventScheduler::serve_window(Picos window_end) {
  window_end_ = window_end;
  if (!workers_) {
    line_census::window_begin(window_end - lookahead_, window_end);
    for (const auto& q : queues_) q->take_inbox();
    for (size_t i = 0; i < queues_.size(); ++i) {
      line_census::queue_begin(i, queues_[i]->served());
      queues_[i]->serve_before(window_end);
      line_census::queue_end(queues_[i]->served());
    }
    line_census::window_end();
    return;
  }
  // Worker w takes queues w, w + n, w + 2n, ...
  const size_t n = static_cast<size_t>(workers_->size());
  auto queues_of = [&](int w, auto&& each) {
    for (size_t i = static_cast<size_t>(w); i < queues_.size(); i += n) each(*queues_[i]);
  };
  workers_->run([&](int w) { queues_of(w, [](EventQueue& q) { q.take_inbox(); }); });
  workers_->run([&](int w) {
    queues_of(w, [window_end](EventQueue& q) { q.serve_before(window_end); });
    ModelClock::release();
  });
}

void EventScheduler::set_lookahead(Picos lookahead) { lookahead_ = std::max<Picos>(lookahead, 1); }

size_t EventScheduler::pending() const {
  return std::accumulate(queues_.begin(), queues_.end(), size_t{0},
                         [](size_t n, const auto& q) { return n + q->pending(); });
}

uint64_t EventScheduler::served() const {
  return std::accumulate(queues_.begin(), queues_.end(), uint64_t{0},
                         [](uint64_t n, const auto& q) { return n + q->served(); });
}

void EventScheduler::scheduled_outside_run(Picos due) {
  // Only the SystemC thread schedules outside a window.
  if (due < notified_for_) notify_kernel(due);
}

void EventScheduler::report_lookahead_violation(Picos due) const {
  const std::string what = "an entry for another partition at " + std::to_string(due) +
                           " ps, inside the window that ends at " + std::to_string(window_end_) +
                           " ps: partitions may interact only through links at least the lookahead (" +
                           std::to_string(lookahead_) + " ps) long";
  SC_REPORT_FATAL(name(), what.c_str());
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

Picos EventScheduler::earliest_due() {
  Picos earliest = kNoEntry;
  for (const auto& q : queues_)
    if (!q->empty()) earliest = std::min(earliest, q->next_due());
  return earliest;
}

void EventScheduler::run() {
  const Picos kernel_now = to_ps(sc_core::sc_time_stamp());
  // Entries before the kernel's next activity cannot interact with anything
  // outside the model: serve them now.
  const uint64_t next_activity = sc_core::sc_time_stamp().value() + sc_core::sc_time_to_pending_activity().value();
  const Picos limit = next_activity > static_cast<uint64_t>(end_) ? end_ : static_cast<Picos>(next_activity);
  notified_for_ = kNoEntry;
  for (Picos start = earliest_due(); start != kNoEntry; start = earliest_due()) {
    if (start > kernel_now && start >= limit) break;
    // One queue needs no windows. Entries due at the kernel's time are
    // served even at the limit.
    const Picos reach = queues_.size() > 1 ? std::min(lookahead_, limit - start) : limit - start;
    const Picos window_end = start + std::max<Picos>(reach, 1);
    serve_window(window_end);
    for (const auto& hook : window_end_hooks_) hook();
    // Between windows every queue stands at window_end: a consistent place
    // to stop. The kernel returns from sc_start at the end of this delta.
    if (StopRequest::raised()) {
      stopped_at_ = window_end;
      sc_core::sc_pause();
      break;
    }
  }
  ModelClock::release();
  const Picos next = earliest_due();
  if (next != kNoEntry) notify_kernel(next);
}

}  // namespace fabric
