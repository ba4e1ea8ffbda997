#include "platforms/app/sweep_validation.h"

#include <functional>
#include <ostream>

#include "config/canonical_value.h"
#include "platforms/app/database_size.h"
#include "platforms/app/run_resolution.h"

namespace fabric {

namespace {

// What a run resolved to, but for its seed: its configuration and its flows
// (a random pattern draws them from the seed), as a hash.
size_t resolution_apart_from_the_seed(const ResolvedRun& run) {
  std::string text = run.config_text;
  if (const size_t at = text.find("sim.seed = "); at != std::string::npos) text.erase(at, text.find('\n', at) - at);
  for (const traffic::FlowSpec& f : run.flows) {
    text += f.name + ":" + std::to_string(raw(f.src)) + ">";
    for (const PortId d : f.dests) text += std::to_string(raw(d)) + ",";
  }
  return std::hash<std::string>()(text);
}

}  // namespace

SweepValidation::SweepValidation(const CommandLine& cl, const config::ParamRegistry& registry,
                                 const config::SweepSpec& spec)
    : cl_(cl), registry_(registry), spec_(spec), grid_(spec.dimension_sizes()), states_(grid_) {}

int SweepValidation::validate(std::ostream& err) {
  const auto all_good = [&](const std::vector<uint64_t>& points) {
    for (const uint64_t p : points) {
      const std::string why = check_point(p);
      if (why.empty()) continue;
      err << "fabricsim: sweep point " << p + 1 << " of " << grid_.size() << " (" << spec_.point(grid_.at(p)).key()
          << "): " << why << "\n";
      return false;
    }
    return true;
  };
  std::vector<uint64_t> stand_for = grid_.values_and_pairs();
  if (const std::optional<size_t> seeds = seed_dimension()) {
    // The first two seeds with every value: the others are resolved only
    // when the seed changes a resolution (a random pattern's flows).
    std::vector<uint64_t> first_seeds, other_seeds;
    for (const uint64_t p : stand_for) (grid_.at(p)[*seeds] <= 1 ? first_seeds : other_seeds).push_back(p);
    if (!all_good(first_seeds)) return 2;
    stand_for = seed_changes_a_resolution(first_seeds, *seeds) ? other_seeds : std::vector<uint64_t>();
  }
  if (!all_good(stand_for)) return 2;
  return all_good(states_.settle_dependencies()) ? 0 : 2;
}

std::optional<size_t> SweepValidation::seed_dimension() const {
  for (size_t d = 0; d < grid_.dimensions(); ++d)
    if (spec_.dimension_keys(d) == std::vector<std::string>{"sim.seed"}) return d;
  return std::nullopt;
}

bool SweepValidation::seed_changes_a_resolution(const std::vector<uint64_t>& resolved, size_t seeds) const {
  for (const uint64_t p : resolved) {
    config::SweepCoordinates first = grid_.at(p);
    if (first[seeds] != 1) continue;
    first[seeds] = 0;
    const auto a = resolution_.find(p), b = resolution_.find(grid_.index(first));
    if (a == resolution_.end() || b == resolution_.end() || a->second != b->second) return true;
  }
  return false;
}

std::vector<std::string> SweepValidation::warnings(uint64_t point) const {
  std::vector<std::string> out;
  for (const config::CheckResult& w : states_.warnings(point)) out.push_back(w.detail);
  return out;
}

std::string SweepValidation::check_point(uint64_t point) {
  ++resolved_;
  const config::SweepCoordinates at = grid_.at(point);
  CommandLine line = cl_;
  for (const auto& [key, value] : spec_.point(at).values) line.swept.push_back(key + "=" + value);
  config::Config config(registry_);
  try {
    const ResolvedRun run = resolve(line, config);
    states_.record(point, config.notes().checks());
    resolution_[point] = resolution_apart_from_the_seed(run);
    if (std::string why = swept_values_reach_the_run(at, config); !why.empty()) return why;
    if (cl_.strict && !run.warnings.empty()) return "--strict: " + run.warnings.front().detail;
    // A point too large for its database is refused before any point runs, as its run would be.
    const DatabaseGrowth growth =
        estimate_database_growth(run.flows, run.loop.sim_time, run.occupancy_samples, cl_.record == "frames");
    if (auto problem =
            database_size_problem(growth, run.loop.sim_time, run.max_db_bytes, std::nullopt, "the point's database"))
      return *problem;
  } catch (const config::ConfigError& e) {
    return config.locate(e).what();
  }
  return "";
}

std::string SweepValidation::swept_values_reach_the_run(const config::SweepCoordinates& at,
                                                        const config::Config& config) const {
  for (size_t d = 0; d < at.size(); ++d) {
    const std::vector<std::string>& keys = spec_.dimension_keys(d);
    const std::vector<std::vector<std::string>>& values = spec_.dimension_values(d);
    for (size_t k = 0; k < keys.size(); ++k) {
      const config::ResolvedParam resolved = config.resolved(keys[k]);
      if (resolved.source == config::ValueSource::sweep) continue;
      if (resolved.source != config::ValueSource::derived || values[at[d]][k] != "auto")
        return "key '" + keys[k] + "' is swept, but the command line (--time, --seed) gives every point its value (" +
               resolved.value + "): the points that differ in it would be one run; give it one way";
      if (keys.size() > 1) continue;  // its partners tell the points apart
      // 'auto' derives a value: the point that gives it would be the same run.
      const config::ParamSpec& param = *registry_.find(keys[k]);
      const std::string derived = config::canonical_value(param, keys[k], resolved.value);
      for (size_t i = 0; i < values.size(); ++i) {
        if (i == at[d] || config::canonical_value(param, keys[k], values[i][k]) != derived) continue;
        config::SweepCoordinates other = at;
        other[d] = i;
        return "key '" + keys[k] + "' is auto and derives " + resolved.value + ", the value sweep point " +
               std::to_string(grid_.index(other) + 1) + " gives it (" + keys[k] + "=" + values[i][k] +
               "): the two points would be one run; sweep one of them";
      }
    }
  }
  return "";
}

}  // namespace fabric
