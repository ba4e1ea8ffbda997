#pragma once
// An SC_METHOD that runs a callback when woken; of several requested wake
// times the earliest wins, and nothing runs while nobody asks: hardware that
// is idle costs no events.
#include <functional>
#include <systemc>

namespace fabric {

class Wakeup : public sc_core::sc_module {
 public:
  Wakeup(sc_core::sc_module_name name, std::function<void()> callback)
      : sc_module(name), callback_(std::move(callback)) {
    SC_METHOD(run);
    sensitive << event_;
    dont_initialize();
  }

  void at(const sc_core::sc_time& when) {
    if (pending_ && when_ <= when) return;
    pending_ = true;
    when_ = when;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (when <= now) {
      event_.notify(sc_core::SC_ZERO_TIME);
    } else {
      event_.notify(when - now);
    }
  }
  bool pending() const { return pending_; }

 private:
  SC_HAS_PROCESS(Wakeup);
  void run() {
    pending_ = false;
    callback_();
  }

  std::function<void()> callback_;
  sc_core::sc_event event_;
  sc_core::sc_time when_;
  bool pending_ = false;
};

}  // namespace fabric
