#pragma once
// Whether every op of a rank can start: an op waits for the ops it
// `requires` (to complete) and `irequires` (to start), so ops that wait for
// each other in a ring, through either kind, never start, and neither does
// anything waiting for them. The GOAL reader refuses such a schedule; a
// generator's test can ask the same. No SystemC inside.
#include <cstdint>
#include <vector>

#include "traffic/jobs/job_schedule.h"

namespace fabric::traffic {

// One ring of ops that wait for each other, in order: each waits for the
// next, the last for the first (a single op that waits for itself is a ring
// of one). Empty when every op can start. Dependencies must name ops of the
// rank (std::out_of_range otherwise: a generator's bug, not user input).
std::vector<uint32_t> dependency_cycle(const RankSchedule& rank);

}  // namespace fabric::traffic
