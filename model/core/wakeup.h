#pragma once
// A step of a module that runs when woken; of several requested wake times
// the earliest wins, and nothing runs while nobody asks: hardware that is
// idle costs no events. Served by the fabric's EventScheduler.
#include <functional>

#include "model/core/event_scheduler.h"
#include "model/core/sim_time.h"

namespace fabric {

class Wakeup final : public EventScheduler::Client {
 public:
  Wakeup(EventScheduler& scheduler, std::function<void()> callback)
      : scheduler_(scheduler), callback_(std::move(callback)) {}

  void at(Picos when) {
    if (pending_ && when_ <= when) return;
    pending_ = true;
    when_ = when;
    scheduler_.schedule(when, *this);
  }
  bool pending() const { return pending_; }

  void on_wake(void*) override {
    if (!pending_ || when_ > now_ps()) return;  // superseded by an earlier wake
    pending_ = false;
    callback_();
  }

 private:
  EventScheduler& scheduler_;
  std::function<void()> callback_;
  Picos when_ = 0;
  bool pending_ = false;
};

}  // namespace fabric
