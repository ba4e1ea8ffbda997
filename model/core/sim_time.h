#pragma once
// Conversions between the model's integer picoseconds and SystemC time, and
// the model's clock: while the EventScheduler serves entries it runs ahead of
// the SystemC kernel (temporal decoupling), and now_ps() is the model time;
// otherwise now_ps() is the kernel's time. Worker threads serving partitions
// in parallel each have their own model time.
#include <systemc>

#include "model/core/ids.h"

namespace fabric {

// sc_time::from_value is an out-of-line library call that consults the
// simulation context; scaling a cached 1 ps is inline arithmetic, exact for
// any time below 2^53 ps (about 2.5 hours).
inline sc_core::sc_time from_ps(Picos ps) {
  static const sc_core::sc_time one_ps = sc_core::sc_time::from_value(1);
  sc_core::sc_time t(one_ps);
  t *= static_cast<double>(ps);
  return t;
}
inline Picos to_ps(const sc_core::sc_time& t) { return static_cast<Picos>(t.value()); }

class ModelClock {
 public:
  static Picos now() { return decoupled_now_ >= 0 ? decoupled_now_ : to_ps(sc_core::sc_time_stamp()); }
  static void set(Picos now) { decoupled_now_ = now; }
  static void release() { decoupled_now_ = -1; }

 private:
  static inline thread_local Picos decoupled_now_ = -1;  // each worker thread serves its own partitions
};

inline Picos now_ps() { return ModelClock::now(); }

}  // namespace fabric
