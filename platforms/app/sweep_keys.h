#pragma once
// The keys of a sweep as a whole (scripts/fabricsim-sweep, fabricsim
// --points), declared once like every key: in a study's [sweep] section
// (`max_points = N`), in a file as sweep.max_points, or with --set. They
// change no run's result and are left out of its recorded configuration.
#include "config/param.h"

namespace fabric {

config::ParamSpec max_points_spec();

struct SweepKeys {
  config::Param<config::Integer> max_points{max_points_spec()};
};

}  // namespace fabric
