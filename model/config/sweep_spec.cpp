#include "model/config/sweep_spec.h"

#include <algorithm>
#include <map>

#include "model/config/split.h"

namespace fabric::config {

namespace {

constexpr const char* kTogether = "together";
constexpr const char* kSeeds = "seeds";
constexpr const char* kInherit = "inherit";
constexpr const char* kListAllowed = "a list of values separated by ',' (or by '|' when values hold commas)";

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

// The last line of each key wins; keys keep the place of their first line.
// "inherit = false" drops the lines before it (a study variant's own sweep).
std::vector<SweepLine> latest_per_key(const std::vector<SweepLine>& lines) {
  std::vector<SweepLine> out;
  std::map<std::string, size_t> at;
  for (const SweepLine& line : lines) {
    if (line.key == kInherit) {
      try {
        if (!parse_bool("sweep.inherit", line.value)) {
          out.clear();
          at.clear();
        }
      } catch (const ConfigError& e) {
        throw e.located_at(line.origin);
      }
      continue;
    }
    const auto it = at.find(line.key);
    if (it == at.end()) {
      at[line.key] = out.size();
      out.push_back(line);
    } else {
      out[it->second] = line;
    }
  }
  return out;
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
  for (const SweepLine& line : latest_per_key(given)) {
    try {
      if (line.key == kSeeds) {
        for (int64_t seed : parse_int_list("sweep.seeds", line.value)) {
          check_value(*registry.find("sim.seed"), "sim.seed", std::to_string(seed));
          spec.seeds_.push_back(std::to_string(seed));
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
    const std::vector<std::string> members = split_values(line.key, line.value);
    size_t length = 0;
    for (const std::string& m : members) {
      const auto it = std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return k.first.key == m; });
      if (it == keys.end())
        throw ConfigError(line.key, line.value, "keys swept in this [sweep] ('" + m + "' is not)").located_at(line.origin);
      if (group_of.count(m))
        throw ConfigError(line.key, line.value, "each key in one group at most ('" + m + "' is in two)").located_at(line.origin);
      if (length != 0 && it->second.size() != length)
        throw ConfigError(m, it->first.value,
                          std::to_string(length) + " values, as many as the keys it varies together with (" + line.key + ")")
            .located_at(it->first.origin);
      length = it->second.size();
      group_of[m] = g;
    }
  }
  std::map<size_t, size_t> dimension_of_group;
  for (const auto& [line, values] : keys) {
    const auto g = group_of.find(line.key);
    if (g != group_of.end() && dimension_of_group.count(g->second)) {
      Dimension& d = spec.dimensions_[dimension_of_group[g->second]];
      d.keys.push_back(line.key);
      for (size_t i = 0; i < values.size(); ++i) d.values[i].push_back(values[i]);
      continue;
    }
    if (g != group_of.end()) dimension_of_group[g->second] = spec.dimensions_.size();
    Dimension d;
    d.keys.push_back(line.key);
    for (const std::string& v : values) d.values.push_back({v});
    spec.dimensions_.push_back(std::move(d));
  }
  return spec;
}

size_t SweepSpec::size() const {
  size_t n = std::max<size_t>(1, seeds_.size());
  for (const Dimension& d : dimensions_) n *= d.values.size();
  return n;
}

std::vector<SweepPoint> SweepSpec::points() const {
  std::vector<SweepPoint> out;
  std::vector<size_t> at(dimensions_.size(), 0);  // an odometer, the last dimension fastest
  const size_t seeds = std::max<size_t>(1, seeds_.size());
  for (size_t n = 0; n < size() / seeds; ++n) {
    SweepPoint base;
    for (size_t d = 0; d < dimensions_.size(); ++d)
      for (size_t k = 0; k < dimensions_[d].keys.size(); ++k)
        base.values.emplace_back(dimensions_[d].keys[k], dimensions_[d].values[at[d]][k]);
    if (seeds_.empty()) out.push_back(base);
    for (const std::string& seed : seeds_) {
      SweepPoint p = base;
      p.values.emplace_back("sim.seed", seed);
      out.push_back(std::move(p));
    }
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
  if (!seeds_.empty()) {
    s += "sim.seed =";
    for (size_t i = 0; i < seeds_.size(); ++i) s += (i ? " | " : " ") + seeds_[i];
    s += "\n";
  }
  return s;
}

SweepLine parse_sweep_option(const std::string& text) {
  const size_t equals = text.find('=');
  const std::string key = equals == std::string::npos ? "" : trim(text.substr(0, equals));
  if (key.empty()) throw ConfigError("--sweep", text, "KEY=V1,V2,...");
  return {key, trim(text.substr(equals + 1)), "--sweep"};
}

}  // namespace fabric::config
