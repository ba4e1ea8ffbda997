// EventScheduler: serves entries in time order with the model clock at each
// entry's time, stops exactly at run_until's end, and runs ahead of the
// SystemC kernel only up to the kernel's next activity, so a SystemC process
// outside the model sees every entry before its own time served and none
// after. Each test elaborates its own modules: gtest_discover_tests runs it
// in a process of its own.
#include <gtest/gtest.h>

#include <systemc>
#include <utility>
#include <vector>

#include "model/core/event_scheduler.h"
#include "model/core/sim_time.h"

namespace fabric {
namespace {

// Records (model time, label) of each wake; a wake may schedule a follower.
class Recorder final : public EventScheduler::Client {
 public:
  explicit Recorder(EventScheduler& scheduler) : scheduler_(scheduler) {}
  void on_wake(void* item) override {
    const auto label = reinterpret_cast<intptr_t>(item);
    served.push_back({now_ps(), label});
    if (label == 1) scheduler_.schedule(now_ps() + 5'000, *this, reinterpret_cast<void*>(intptr_t{11}));
  }
  std::vector<std::pair<Picos, intptr_t>> served;

 private:
  EventScheduler& scheduler_;
};

TEST(EventScheduler, ServesInTimeOrderAndStopsAtTheEnd) {
  EventScheduler scheduler("scheduler");
  Recorder r(scheduler);
  auto item = [](intptr_t label) { return reinterpret_cast<void*>(label); };
  scheduler.schedule(30'000, r, item(3));
  scheduler.schedule(10'000, r, item(1));  // schedules 11 at 15'000
  scheduler.schedule(20'000, r, item(2));
  scheduler.schedule(20'000, r, item(4));  // same time as 2, scheduled later: served after it
  scheduler.schedule(50'000, r, item(5));  // at the end: not served
  scheduler.run_until(50'000);
  const std::vector<std::pair<Picos, intptr_t>> expected = {
      {10'000, 1}, {15'000, 11}, {20'000, 2}, {20'000, 4}, {30'000, 3}};
  EXPECT_EQ(r.served, expected);
  EXPECT_EQ(to_ps(sc_core::sc_time_stamp()), 50'000);
  EXPECT_EQ(scheduler.pending(), 1u);
  scheduler.run_until(60'000);
  ASSERT_EQ(r.served.size(), 6u);
  EXPECT_EQ(r.served.back(), (std::pair<Picos, intptr_t>{50'000, 5}));
}

// A SystemC process outside the model, woken by the kernel at 25 ns.
class Observer : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Observer);
  Observer(sc_core::sc_module_name name, const Recorder& r) : sc_module(name), recorder_(r) {
    SC_METHOD(look);
    sensitive << tick_;
    dont_initialize();
  }
  void start() { tick_.notify(sc_core::sc_time(25, sc_core::SC_NS)); }
  Picos seen_at = -1;
  size_t served_then = 0;

 private:
  void look() {
    seen_at = now_ps();
    served_then = recorder_.served.size();
  }
  const Recorder& recorder_;
  sc_core::sc_event tick_;
};

TEST(EventScheduler, RunsAheadOnlyToTheKernelsNextActivity) {
  EventScheduler scheduler("scheduler");
  Recorder r(scheduler);
  Observer observer("observer", r);
  for (intptr_t k = 2; k <= 5; ++k) scheduler.schedule(k * 10'000, r, reinterpret_cast<void*>(k + 100));
  observer.start();
  scheduler.run_until(100'000);
  EXPECT_EQ(observer.seen_at, 25'000);    // outside the scheduler, now_ps() is the kernel's time
  EXPECT_EQ(observer.served_then, 1u);    // the entry at 20 ns, not those at 30, 40, 50 ns
  EXPECT_EQ(r.served.size(), 4u);
}

}  // namespace
}  // namespace fabric
