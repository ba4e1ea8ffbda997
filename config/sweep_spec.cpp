#include "config/sweep_spec.h"

#include <algorithm>
#include <map>

#include "config/canonical_value.h"
#include "config/key_names.h"
#include "config/split.h"

namespace fabric::config {

namespace {

constexpr const char* kTogether = "together";
constexpr const char* kSeeds = "seeds";
constexpr const char* kInherit = "inherit";
constexpr const char* kListAllowed = "a list of values separated by ',' (or by '|' when values hold commas)";
constexpr const char* kSeedKey = "sim.seed";
constexpr const char* kSweepOption = "--sweep";  // the origin of a --sweep line

bool is_together(const std::string& key) { return key == kTogether || key.rfind(std::string(kTogether) + ".", 0) == 0; }

std::vector<std::string> split_values(const std::string& key, const std::string& text) {
  const char separator = text.find('|') != std::string::npos ? '|' : ',';
  std::vector<std::string> values;
  for (const std::string& piece : split_on(text, separator)) {
    const std::string v = trim(piece);
    if (v.empty()) throw ConfigError(key, text, kListAllowed + std::string(", none of them empty"));
    values.push_back(v);
  }
  return values;
}

// The lines after the last "inherit = false" (a study variant's own sweep).
std::vector<SweepLine> inherited(const std::vector<SweepLine>& lines) {
  std::vector<SweepLine> out;
  for (const SweepLine& line : lines) {
    if (line.key != kInherit) {
      out.push_back(line);
      continue;
    }
    try {
      if (!parse_bool("sweep.inherit", line.value)) out.clear();
    } catch (const ConfigError& e) {
      throw e.located_at(line.origin);
    }
  }
  return out;
}

// The last line of each key wins (a variant's file after its base's, --sweep
// after the files); keys keep the place of their first line. A renamed key's
// old name stands for the new one (KeyNames). A key given by two --sweep
// options is refused: on the command line a key is given one way.
std::vector<SweepLine> latest_per_key(const std::vector<SweepLine>& lines, KeyNames& names) {
  std::vector<SweepLine> out;
  std::map<std::string, size_t> at;
  for (SweepLine line : inherited(lines)) {
    const bool is_key = line.key != kSeeds && !is_together(line.key);
    const std::string written = line.key;
    try {
      if (is_key) line.key = names.current(written, line.value, line.origin);
    } catch (const ConfigError& e) {
      throw e.located_at(line.origin);
    }
    const auto it = at.find(line.key);
    if (it == at.end()) {
      at[line.key] = out.size();
      out.push_back(line);
      continue;
    }
    const SweepLine& before = out[it->second];
    if (before.origin == kSweepOption && line.origin == kSweepOption)
      throw ConfigError(written, line.value,
                        "one --sweep per key: --sweep " + before.key + "=" + before.value +
                            " sweeps it too; give all its values in one --sweep")
          .located_at(line.origin);
    out[it->second] = line;
  }
  return out;
}

// Two values of a dimension that would make two points one run: the same
// value of each of its keys (in any spelling). Throws ConfigError naming the
// key and both values, at the line that gave them.
void refuse_repeated_values(const std::vector<std::string>& keys, const std::vector<std::vector<std::string>>& values,
                            const std::vector<const SweepLine*>& lines, const ParamRegistry& registry) {
  std::map<std::vector<std::string>, size_t> seen;  // canonical values -> first index
  for (size_t i = 0; i < values.size(); ++i) {
    std::vector<std::string> canonical;
    for (size_t k = 0; k < keys.size(); ++k)
      canonical.push_back(canonical_value(*registry.find(keys[k]), keys[k], values[i][k]));
    const auto [first, fresh] = seen.emplace(canonical, i);
    if (fresh) continue;
    const auto spelled = [&](const std::vector<std::string>& v) {
      std::string text;
      for (size_t k = 0; k < keys.size(); ++k) text += (k ? " & " : "") + keys[k] + "=" + v[k];
      return text;
    };
    const std::string again = spelled(values[i]), before = spelled(values[first->second]);
    const std::string why =
        again == before ? again + " is given twice" : again + " is " + before + " again (one value, two spellings)";
    const SweepLine& line = *lines.front();
    throw ConfigError(line.key, line.value, "each value once: " + why + ", and its two points would be one run")
        .located_at(line.origin);
  }
}

}  // namespace

std::string SweepPoint::key() const {
  std::string s;
  for (const auto& [k, v] : values) s += (s.empty() ? "" : "; ") + k + "=" + v;
  return s;
}

SweepSpec SweepSpec::parse(const std::vector<SweepLine>& given, const ParamRegistry& registry) {
  SweepSpec spec;
  std::vector<std::pair<SweepLine, std::vector<std::string>>> keys;  // swept keys and their values
  std::vector<SweepLine> groups;
  std::optional<SweepLine> seeds;
  std::vector<std::string> seed_values;
  KeyNames names(registry);
  const std::vector<SweepLine> lines = latest_per_key(given, names);
  spec.notes_ = names.notes();
  for (const SweepLine& line : lines) {
    if (line.key != kSeeds && !is_together(line.key)) spec.given_[line.key] = *names.given(line.key);
    try {
      if (line.key == kSeeds) {
        seeds = line;
        for (int64_t seed : parse_int_list("sweep.seeds", line.value)) {
          check_value(*registry.find(kSeedKey), kSeedKey, std::to_string(seed));
          seed_values.push_back(std::to_string(seed));
        }
        continue;
      }
      if (is_together(line.key)) {
        groups.push_back(line);
        continue;
      }
      const ParamSpec* param = registry.find(line.key);
      if (!param) throw registry.unknown_key(line.key, line.value);
      if (param->is_pattern() && param->key == line.key) throw ConfigError(line.key, line.value, "a concrete key");
      std::vector<std::string> values = split_values(line.key, line.value);
      for (const std::string& v : values) check_value(*param, line.key, v);
      keys.emplace_back(line, std::move(values));
    } catch (const ConfigError& e) {
      throw e.located_at(line.origin);
    }
  }
  // Keys varied together: one dimension at the place of the first.
  std::map<std::string, size_t> group_of;
  for (size_t g = 0; g < groups.size(); ++g) {
    const SweepLine& line = groups[g];
    std::vector<std::string> members = split_values(line.key, line.value);
    for (std::string& m : members) m = names.current_name(m);
    size_t length = 0;
    for (const std::string& m : members) {
      const auto it = std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return k.first.key == m; });
      if (it == keys.end())
        throw ConfigError(line.key, line.value, "keys swept in this [sweep] ('" + m + "' is not)")
            .located_at(line.origin);
      if (group_of.count(m))
        throw ConfigError(line.key, line.value, "each key in one group at most ('" + m + "' is in two)")
            .located_at(line.origin);
      if (length != 0 && it->second.size() != length)
        throw ConfigError(
            m, it->first.value,
            std::to_string(length) + " values, as many as the keys it varies together with (" + line.key + ")")
            .located_at(it->first.origin);
      length = it->second.size();
      group_of[m] = g;
    }
  }
  std::map<size_t, size_t> dimension_of_group;
  std::vector<std::vector<const SweepLine*>> lines_of;  // per dimension, for its errors
  for (const auto& [line, values] : keys) {
    const auto g = group_of.find(line.key);
    if (g != group_of.end() && dimension_of_group.count(g->second)) {
      const size_t at = dimension_of_group[g->second];
      Dimension& d = spec.dimensions_[at];
      d.keys.push_back(line.key);
      for (size_t i = 0; i < values.size(); ++i) d.values[i].push_back(values[i]);
      lines_of[at].push_back(&line);
      continue;
    }
    if (g != group_of.end()) dimension_of_group[g->second] = spec.dimensions_.size();
    Dimension d;
    d.keys.push_back(line.key);
    for (const std::string& v : values) d.values.push_back({v});
    spec.dimensions_.push_back(std::move(d));
    lines_of.push_back({&line});
  }
  for (size_t d = 0; d < spec.dimensions_.size(); ++d)
    refuse_repeated_values(spec.dimensions_[d].keys, spec.dimensions_[d].values, lines_of[d], registry);
  if (seeds) {
    // Both would set sim.seed: every point twice, and two runs that cannot be told apart.
    const auto swept = std::find_if(keys.begin(), keys.end(), [](const auto& k) { return k.first.key == kSeedKey; });
    if (swept != keys.end())
      throw ConfigError("sweep.seeds", seeds->value,
                        std::string("no seeds while ") + kSeedKey + " is swept itself (at " + swept->first.origin +
                            "): each key is swept once")
          .located_at(seeds->origin);
    Dimension d;
    d.keys.push_back(kSeedKey);
    for (const std::string& v : seed_values) d.values.push_back({v});
    const SweepLine seed_line{"sweep.seeds", seeds->value, seeds->origin};
    refuse_repeated_values(d.keys, d.values, {&seed_line}, registry);
    spec.dimensions_.push_back(std::move(d));
  }
  return spec;
}

std::optional<uint64_t> SweepSpec::size() const {
  uint64_t n = 1;
  for (const Dimension& d : dimensions_)
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(d.values.size()), &n)) return std::nullopt;
  return n;
}

std::string SweepSpec::size_formula() const {
  std::string s;
  for (size_t d = 0; d < dimensions_.size();) {  // runs of three or more equal sizes as powers: "4 x 4 x 8^20"
    size_t run = 1;
    while (d + run < dimensions_.size() && dimensions_[d + run].values.size() == dimensions_[d].values.size()) ++run;
    const std::string n = std::to_string(dimensions_[d].values.size());
    for (size_t i = 0; i < (run < 3 ? run : 1); ++i) s += (s.empty() ? "" : " x ") + n;
    if (run >= 3) s += "^" + std::to_string(run);
    d += run;
  }
  return s.empty() ? "1" : s;
}

std::vector<size_t> SweepSpec::dimension_sizes() const {
  std::vector<size_t> sizes;
  for (const Dimension& d : dimensions_) sizes.push_back(d.values.size());
  return sizes;
}

SweepPoint SweepSpec::point(const SweepCoordinates& at) const {
  SweepPoint p;
  for (size_t d = 0; d < dimensions_.size(); ++d)
    for (size_t k = 0; k < dimensions_[d].keys.size(); ++k)
      p.values.emplace_back(dimensions_[d].keys[k], dimensions_[d].values[at[d]][k]);
  return p;
}

std::vector<SweepPoint> SweepSpec::points() const {
  std::vector<SweepPoint> out;
  SweepCoordinates at(dimensions_.size(), 0);  // an odometer, the last dimension fastest
  for (uint64_t n = 0, total = size().value(); n < total; ++n) {
    out.push_back(point(at));
    for (size_t d = dimensions_.size(); d-- > 0;) {
      if (++at[d] < dimensions_[d].values.size()) break;
      at[d] = 0;
    }
  }
  return out;
}

std::string SweepSpec::describe() const {
  std::string s;
  for (const Dimension& d : dimensions_) {
    for (size_t k = 0; k < d.keys.size(); ++k) {
      s += (k ? " & " : "") + d.keys[k] + " =";
      for (size_t i = 0; i < d.values.size(); ++i) s += (i ? " | " : " ") + d.values[i][k];
    }
    s += "\n";
  }
  return s;
}

SweepLine parse_sweep_option(const std::string& text) {
  const size_t equals = text.find('=');
  const std::string key = equals == std::string::npos ? "" : trim(text.substr(0, equals));
  if (key.empty()) throw ConfigError("--sweep", text, "KEY=V1,V2,...");
  return {key, trim(text.substr(equals + 1)), kSweepOption};
}

}  // namespace fabric::config
