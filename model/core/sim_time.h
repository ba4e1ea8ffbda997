#pragma once
// Conversions between the model's integer picoseconds and SystemC time, and
// the model's clock: while the EventScheduler serves entries it runs ahead of
// the SystemC kernel (temporal decoupling), and now_ps() is the model time;
// otherwise now_ps() is the kernel's time.
#include <systemc>

#include "model/core/ids.h"

namespace fabric {

inline sc_core::sc_time from_ps(Picos ps) { return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(ps)); }
inline Picos to_ps(const sc_core::sc_time& t) { return static_cast<Picos>(t.value()); }

class ModelClock {
 public:
  static Picos now() { return decoupled_now_ >= 0 ? decoupled_now_ : to_ps(sc_core::sc_time_stamp()); }
  static void set(Picos now) { decoupled_now_ = now; }
  static void release() { decoupled_now_ = -1; }

 private:
  static inline Picos decoupled_now_ = -1;
};

inline Picos now_ps() { return ModelClock::now(); }

}  // namespace fabric
