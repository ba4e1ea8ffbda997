#pragma once
// The hot set (issue 56, step 1): which cache lines the events of a window
// touch, per partition. In a counting build (cmake -DFABRICSIM_COUNT_LINES=ON,
// benchmarks/line_census/) the compiler reports every load and store of
// the model's code, and the scheduler marks here where a window starts and
// which partition's queue it serves; the census counts the distinct lines
// of each queue's turn and of each window. In every other build these are
// empty and cost nothing.
#include <cstddef>
#include <cstdint>

#include "model/core/ids.h"

namespace fabric::line_census {

#ifdef FABRICSIM_COUNT_LINES
void window_begin(Picos start, Picos end);
void queue_begin(size_t queue, uint64_t served_before);
void queue_end(uint64_t served_after);
void window_end();
#else
inline void window_begin(Picos, Picos) {}
inline void queue_begin(size_t, uint64_t) {}
inline void queue_end(uint64_t) {}
inline void window_end() {}
#endif

}  // namespace fabric::line_census
