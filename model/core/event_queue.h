#pragma once
// The event queue of one partition of the model: the ports, crossbar inputs
// and internal steps of the modules in the partition ask to be woken at a
// time, and one timing wheel orders them. Queues are owned and served by the
// EventScheduler, which runs them in time windows (see event_scheduler.h).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "model/core/ids.h"
#include "model/core/timing_wheel.h"
#include "model/core/worker.h"

namespace fabric {

class EventScheduler;

class EventClient {
 public:
  virtual ~EventClient() = default;
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

// How a queue's timing wheel is laid out: its buckets, horizon and the
// entries a bucket holds before it spills.
struct EventQueueShape {
  int bucket_bits = 8;  // 256 ps buckets
  int wheel_bits = 12;  // 4096 buckets: 1 us ahead, the span of one hop
  int slots_per_bucket = 128;
};

class alignas(64) EventQueue {
 public:
  using Client = EventClient;

  EventQueue(EventScheduler& owner, const EventQueueShape& shape, int index);
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;

  // Entries of this queue with equal times run in the order they were
  // scheduled. `item` rides with the entry (a message in flight, say): no
  // queue of its own at the client. A module may schedule into the queue of
  // another partition only at least the scheduler's lookahead ahead of its
  // own time (what a link's propagation delay guarantees).
  void schedule(Picos due, Client& client, void* item = nullptr) {
    // The queue under service takes its own entries straight into its
    // wheel; no queue is ever served earlier than the entry being served.
    if (serving_ == this) {
      wheel_.push(due, {&client, item});
      return;
    }
    schedule_from_elsewhere(due, client, item);
  }

  // A schedule() from the partition being served is coming: bring in
  // what it will write (for another partition, this thread's inbox line).
  void prefetch_schedule() const {
    if (serving_ != this && serving_ != nullptr) __builtin_prefetch(&inboxes_[Worker::index()], 1);
  }

  size_t pending() const;
  // The queue the calling thread is serving (null outside a window), and a
  // queue's place in the scheduler's order.
  static const EventQueue* serving() { return serving_; }
  int index() const { return index_; }
  uint64_t served() const { return served_; }

 private:
  friend class EventScheduler;
  struct Wake {
    Client* client;
    void* item;
  };
  // Serving an entry touches the client object and the item's first cache
  // lines, then what the client's prefetch() names, then what its
  // prefetch_deep() names. Many of them are cache misses: asking for a
  // whole bucket's at once lets them overlap, and asking a bucket apart for
  // each level lets each level find the one before it in the cache.
  struct PrefetchWake {
    template <class Entry>
    static void on_bucket(int stage, const Entry* begin, const Entry* end) {
      switch (stage) {
        case 2:
          for (const Entry* e = begin; e != end; ++e) {
            __builtin_prefetch(e->value.client);
            if (const char* item = static_cast<const char*>(e->value.item)) {
              __builtin_prefetch(item);  // a message's two lines (or a client's own tag)
              __builtin_prefetch(item + 64);
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

  bool inbox_empty() const;
  bool empty() const { return wheel_.empty() && inbox_empty(); }
  Picos next_due() const;  // not empty
  // Serves, in order, every entry due before `end`, including those it
  // schedules there itself. The inbox is taken first, by take_inbox().
  void serve_before(Picos end);
  // From another partition's service (at least a window ahead) or from
  // outside the scheduler's service.
  void schedule_from_elsewhere(Picos due, Client& client, void* item);
  // What other partitions scheduled here in the last window joins the
  // wheel: at the start of every window, before any queue is served.
  void take_inbox();

  // Entries other partitions scheduled here during the window under way: a
  // plain append, so a module does not touch another partition's wheel (a
  // cache miss each) but one cache line of this queue, its worker's inbox;
  // they join the wheel at the start of the next window. One inbox per
  // worker thread, each in a line of its own, so that threads serving
  // partitions in parallel never write to the same line; each entry names
  // the queue it came from, and the inboxes are merged in the scheduler's
  // order of queues: the wheel sees them in the order one thread serving
  // every queue in turn gives.
  struct InboxEntry {
    typename TimingWheel<Wake, PrefetchWake>::Entry entry;
    int from;
  };
  struct alignas(64) Inbox {
    std::vector<InboxEntry> entries;
    Picos earliest = std::numeric_limits<Picos>::max();
  };
  Inbox inboxes_[Worker::kMax];
  // The queue this thread serves (null outside a window), its place in the
  // scheduler's order and the end of the window it serves (a push from it
  // reads these, not the queue or the scheduler); and this queue's place.
  static inline thread_local EventQueue* serving_ = nullptr;
  static inline thread_local int serving_index_ = 0;
  static inline thread_local Picos serving_end_ = 0;
  int index_ = 0;
  int inbox_workers_ = 1;  // how many of inboxes_ are in use
  uint64_t served_ = 0;
  EventScheduler& owner_;
  TimingWheel<Wake, PrefetchWake> wheel_;
};

}  // namespace fabric
