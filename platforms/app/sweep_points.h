#pragma once
// fabricsim --points: a sweep's points (the study's [sweep] section and
// --sweep), validated as runs (sweep_validation.h), listed as JSON lines for
// the sweep runner (scripts/fabricsim-sweep). A sweep of more points than
// sweep.max_points, counted before any is made, or a bad value anywhere
// stops the listing with exit 2 before any point has run.
//
//   {"study": "E2a", "sweep": "<definition>", "points": 32}
//   {"point": 1, "key": "leaf.cache.entries=16; flow.f1.frame_size=512", "sets": ["leaf.cache.entries=16", ...]}
#include <iosfwd>

#include "config/config.h"
#include "platforms/app/command_line.h"

namespace fabric {

// Returns the exit status: 0, or 2 with the error on `err`.
int list_sweep_points(const CommandLine& cl, const config::ParamRegistry& registry, std::ostream& out,
                      std::ostream& err);

}  // namespace fabric
