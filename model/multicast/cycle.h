#pragma once
// Clock cycles of the leaf core (454 MHz): the time base of the cycle-accurate
// sub-models. The SystemC shell converts between cycles and picoseconds.
#include <cstdint>

namespace fabric {

using Cycle = uint64_t;

}  // namespace fabric
