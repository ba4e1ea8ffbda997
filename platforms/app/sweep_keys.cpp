#include "platforms/app/sweep_keys.h"

namespace fabric {

config::ParamSpec max_points_spec() {
  config::ParamSpec spec{
      "sweep.max_points",
      config::ParamType::integer,
      "100000",
      "points",
      "guard: a sweep of more points is refused before any point runs, counted before any is made (each "
      "point is a run with a database of its own, and the runner holds them all)",
      1,
      1e6};
  spec.affects_results = false;
  return spec;
}

}  // namespace fabric
