#pragma once
// What the checks of physical constraints (resolution_notes.h) say at every
// point of a sweep, known from the points resolved: a check depends on the
// dimensions along which it changes (made or not, holds or not, its numbers)
// between two resolved points that differ in that dimension alone; once the
// combinations of those dimensions are resolved too, any point's checks are
// those of the resolved point that agrees with it on them. So a sweep of a
// million points is resolved at its values, its pairs of values and the
// combinations a check reads, and still names each point's warnings. A
// check that changes only when three or more dimensions change together
// (none alone or in pairs) is beyond what this sees; each run checks its own
// point again (run_warnings). No SystemC.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "config/resolution_notes.h"
#include "config/sweep_grid.h"

namespace fabric::config {

class SweepCheckStates {
 public:
  explicit SweepCheckStates(const SweepGrid& grid) : grid_(grid) {}

  // The checks a resolved point made (point numbers from 0).
  void record(uint64_t point, const std::vector<CheckResult>& checks);
  bool recorded(uint64_t point) const { return states_.count(point) > 0; }
  // Settles, from the points recorded so far, the dimensions each check
  // depends on; returns the points not recorded yet that complete every
  // combination of them, in order, to be resolved and recorded.
  std::vector<uint64_t> settle_dependencies();
  // The checks that do not hold at `point`: its own when it was recorded,
  // else those of the recorded point that agrees with it on each check's
  // dimensions (after settle_dependencies).
  std::vector<CheckResult> warnings(uint64_t point) const;
  // The dimensions a check depends on, by name ("" when no point made it).
  std::vector<size_t> dependencies(const std::string& check_name) const;

 private:
  // A check's identity across points: its name and keys (and which of that
  // name, should one be made twice).
  int id_of(const std::string& identity);

  const SweepGrid& grid_;
  std::map<std::string, int> ids_;
  std::vector<std::string> names_;  // by id
  // Per recorded point: (check id, hash of its state), sorted by id.
  std::unordered_map<uint64_t, std::vector<std::pair<int, size_t>>> states_;
  // The checks that do not hold, per recorded point, in the order made.
  std::unordered_map<uint64_t, std::vector<std::pair<int, CheckResult>>> failing_;
  std::vector<bool> ever_fails_;                 // by id
  std::vector<std::vector<size_t>> depends_on_;  // by id
};

}  // namespace fabric::config
