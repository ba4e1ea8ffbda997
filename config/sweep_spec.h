#pragma once
// A parameter study: the [sweep] section of a study file (and --sweep on the
// command line) expanded into points. No SystemC.
//
//   [sweep]
//   leaf.cache.entries = 16, 32, 64, 128     ; a key and its values
//   flow.f1.frame_size = 512, 1522, 9022
//   leaf.sync.enable   = true, false
//   together           = flow.f1.frame_size, leaf.sync.enable   ; varied together, not crossed
//   seeds              = 1-3                                   ; repetitions (sim.seed)
//
// Values are separated by commas, or by '|' when a value holds commas of its
// own ("1ms-2ms,3ms-4ms | 5ms-6ms"). Keys are crossed in the order they are
// first given, the last varying fastest; keys named together (`together`,
// or `together.NAME` for more groups) take the i-th value of each and count
// as one key, at the place of the first; seeds vary fastest of all. A key
// given again (a study variant's file after its base, --sweep after the
// file) replaces its values, but a key is given by one --sweep at most;
// `inherit = false` drops the sweep lines read before it (a variant's sweep
// of its own). A renamed key's old name stands for the new one, with a note
// (key_names.h). Every value is checked against
// its key's type and range when the sweep is read, and so is that no two
// points would be one run: a value given twice (also in two spellings,
// "1522" and "1522B"), or sim.seed swept itself and by `seeds`, is refused.
//
// Points are not held: a sweep can have more of them than memory, and its
// size is counted (without overflow) before any is made. Each is made from
// its coordinates, one value index per dimension (a key, or keys together,
// or the seeds).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"

namespace fabric::config {

using SweepLine = IniEntry;  // origin: "file:line", or "--sweep"

// One point: the keys it sets, in the sweep's order (sim.seed last, if swept).
struct SweepPoint {
  std::vector<std::pair<std::string, std::string>> values;
  // "key=value" pieces joined by "; ": the point's name and identity.
  std::string key() const;
};

// A point's place in the sweep: one value index per dimension.
using SweepCoordinates = std::vector<size_t>;

class SweepSpec {
 public:
  // Throws ConfigError naming the key (and where it was given).
  static SweepSpec parse(const std::vector<SweepLine>& lines, const ParamRegistry& registry);

  bool empty() const { return dimensions_.empty(); }
  // The number of points (1 for an empty sweep); nullopt when it is more
  // than 64 bits count.
  std::optional<uint64_t> size() const;
  // The values of each dimension, multiplied: "4 x 8^20".
  std::string size_formula() const;
  // The number of values of each dimension, in the sweep's order.
  std::vector<size_t> dimension_sizes() const;
  // The keys a dimension sets (several for keys varied together).
  const std::vector<std::string>& dimension_keys(size_t dimension) const { return dimensions_[dimension].keys; }
  // Its values: [value index][key], as given.
  const std::vector<std::vector<std::string>>& dimension_values(size_t dimension) const {
    return dimensions_[dimension].values;
  }
  SweepPoint point(const SweepCoordinates& at) const;
  // Every point in order: for sweeps whose size() has been checked.
  std::vector<SweepPoint> points() const;
  // The sweep's definition, one dimension per line: its identity.
  std::string describe() const;
  // A swept key's name as written and where ("file:line", "--sweep");
  // nullptr for a key not swept (or sim.seed swept by `seeds`).
  const KeyNames::Given* given(const std::string& key) const {
    const auto it = given_.find(key);
    return it == given_.end() ? nullptr : &it->second;
  }
  // The notes of the old key names the sweep used.
  const std::vector<std::string>& renamed_keys_used() const { return notes_; }

 private:
  struct Dimension {
    std::vector<std::string> keys;
    std::vector<std::vector<std::string>> values;  // [point along this dimension][key]
  };
  std::vector<Dimension> dimensions_;  // the seeds, if any, last (sim.seed)
  std::map<std::string, KeyNames::Given> given_;
  std::vector<std::string> notes_;
};

// "--sweep KEY=V1,V2" as a SweepLine; throws ConfigError on a missing '='.
SweepLine parse_sweep_option(const std::string& text);

}  // namespace fabric::config
