#pragma once
// Which of the scheduler's worker threads runs the calling code: 0 for the
// thread that runs SystemC (and every thread outside a parallel window),
// 1 .. n-1 for the others. Per-thread state of the model (free lists,
// deferred releases, inboxes) is indexed by it.
namespace fabric {

class Worker {
 public:
  static constexpr int kMax = 32;  // sim.threads at most
  static int index() { return index_; }
  static void set_index(int index) { index_ = index; }

 private:
  static inline thread_local int index_ = 0;
};

}  // namespace fabric
