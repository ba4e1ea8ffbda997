#pragma once
// A sweep's points validated as runs before any runs (fabricsim --points):
// each point that stands for the sweep (config::SweepGrid: every value, every
// pair of values, and the combinations a check of physical constraints
// depends on, config::SweepCheckStates) is resolved as its run will be, so
// that a million points cost the resolutions of their values, not a million.
// Refused, naming the point: a value that is bad as a run, a check that does
// not hold with --strict, and a point that would be another point's run: a
// swept key whose value does not reach the run (--time gives sim.time, or
// --seed sim.seed, to every point) or an `auto` value that derives another
// value of the same key. The seeds are resolved at their first two values
// (with every value of the other keys): the others only when the seed
// changes what a point resolves to (a random pattern's flows, by hash).
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/config.h"
#include "config/sweep_check_states.h"
#include "config/sweep_grid.h"
#include "config/sweep_spec.h"
#include "platforms/app/command_line.h"

namespace fabric {

class SweepValidation {
 public:
  // `spec`'s size must have been checked (it fits the grid).
  SweepValidation(const CommandLine& cl, const config::ParamRegistry& registry, const config::SweepSpec& spec);

  // Resolves the points that stand for the sweep, in order; returns 0, or
  // 2 with the first bad point's error on `err`.
  int validate(std::ostream& err);
  // A point's warnings (the details of the checks that do not hold), from
  // 0; after validate().
  std::vector<std::string> warnings(uint64_t point) const;
  const config::SweepGrid& grid() const { return grid_; }
  uint64_t resolved_points() const { return resolved_; }

 private:
  // "" when the point resolves as a run; else why not.
  std::string check_point(uint64_t point);
  // The dimension of the seeds (sim.seed alone), if swept.
  std::optional<size_t> seed_dimension() const;
  // Whether a point of `resolved` at the second seed resolved to another
  // run than at the first (apart from the seed): then every seed stands
  // for itself; else the seeds after them are the same resolution.
  bool seed_changes_a_resolution(const std::vector<uint64_t>& resolved, size_t seeds) const;
  // "" when every swept key's value is the run's; else why the point would
  // be another point's run.
  std::string swept_values_reach_the_run(const config::SweepCoordinates& at, const config::Config& config) const;

  const CommandLine& cl_;
  const config::ParamRegistry& registry_;
  const config::SweepSpec& spec_;
  config::SweepGrid grid_;
  config::SweepCheckStates states_;
  uint64_t resolved_ = 0;
  std::unordered_map<uint64_t, size_t> resolution_;  // point -> resolution_apart_from_the_seed
};

}  // namespace fabric
