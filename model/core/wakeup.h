#pragma once
// A step of a module that runs when woken; of several requested wake times
// the earliest wins, and nothing runs while nobody asks: hardware that is
// idle costs no events. Served by the event queue of the module's partition.
#include <functional>

#include "model/core/event_queue.h"
#include "model/core/sim_time.h"

namespace fabric {

class Wakeup final : public EventQueue::Client {
 public:
  Wakeup(EventQueue& events, std::function<void()> callback) : events_(events), callback_(std::move(callback)) {}

  void at(Picos when) {
    if (pending_ && when_ <= when) return;
    pending_ = true;
    when_ = when;
    events_.schedule(when, *this);
  }
  bool pending() const { return pending_; }
  Picos due() const { return when_; }  // when pending()

  void on_wake(void*) override {
    if (!pending_ || when_ > now_ps()) return;  // superseded by an earlier wake
    pending_ = false;
    callback_();
  }

 private:
  EventQueue& events_;
  std::function<void()> callback_;
  Picos when_ = 0;
  bool pending_ = false;
};

}  // namespace fabric
