#pragma once
// A request to stop the simulation, raised from a signal handler or another
// thread. The event scheduler looks at it after every time window and
// stops there, with every partition at the same simulated time; whoever
// drives the run then records what it reached.
#include <atomic>

namespace fabric {

class StopRequest {
 public:
  // Async-signal-safe: a lock-free atomic store.
  static void raise() { flag_.store(true, std::memory_order_relaxed); }
  static bool raised() { return flag_.load(std::memory_order_relaxed); }
  static void clear() { flag_.store(false, std::memory_order_relaxed); }

 private:
  static_assert(std::atomic<bool>::is_always_lock_free, "raised from signal handlers");
  inline static std::atomic<bool> flag_{false};
};

}  // namespace fabric
