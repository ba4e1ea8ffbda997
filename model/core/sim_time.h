#pragma once
// Conversions between the model's integer picoseconds and SystemC time.
#include <systemc>

#include "model/core/ids.h"

namespace fabric {

inline sc_core::sc_time from_ps(Picos ps) { return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(ps)); }
inline Picos to_ps(const sc_core::sc_time& t) { return static_cast<Picos>(t.value()); }
inline Picos now_ps() { return to_ps(sc_core::sc_time_stamp()); }

}  // namespace fabric
