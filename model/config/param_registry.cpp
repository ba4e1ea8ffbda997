// ParamRegistry: the declared keys, the check of a value against its
// declaration, suggestions for a mistyped key, and --list-params.
// Value syntax lives in value_parsers.cpp; the values of a run in config.cpp.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

#include "model/config/config.h"
#include "model/config/param_range.h"
#include "model/config/split.h"

namespace fabric::config {
namespace {

constexpr const char* kUnknownKeyAllowed = "a declared key (see --list-params)";

std::vector<std::string> split_segments(const std::string& key) { return split_on(key, '.'); }

bool is_instance_name(const std::string& segment) {
  if (segment.empty()) return false;
  return std::all_of(segment.begin(), segment.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
  });
}

bool matches_wildcard(const std::string& pattern, const std::string& key) {
  const std::vector<std::string> wanted = split_segments(pattern);
  const std::vector<std::string> given = split_segments(key);
  if (wanted.size() != given.size()) return false;
  for (size_t i = 0; i < wanted.size(); ++i) {
    const bool ok = wanted[i] == "*" ? is_instance_name(given[i]) : wanted[i] == given[i];
    if (!ok) return false;
  }
  return true;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string joined;
  for (const std::string& item : items) joined += (joined.empty() ? "" : separator) + item;
  return joined;
}

void check_declarable(const ParamSpec& spec) {
  const std::vector<std::string> segments = split_segments(spec.key);
  const auto wildcards = std::count(segments.begin(), segments.end(), "*");
  const bool stray_star = std::any_of(segments.begin(), segments.end(), [](const std::string& s) {
    return s != "*" && s.find('*') != std::string::npos;
  });
  if (spec.key.empty() || wildcards > 1 || stray_star) {
    throw std::logic_error("parameter key '" + spec.key + "': at most one segment may be '*'");
  }
  if (spec.type == ParamType::choice && spec.choices.empty()) {
    throw std::logic_error("parameter '" + spec.key + "' is a choice without choices");
  }
  // Free text parsed by hand somewhere is what the syntax replaces.
  if (spec.type == ParamType::text && (!spec.syntax.check || spec.syntax.allowed.empty())) {
    throw std::logic_error("parameter '" + spec.key + "' is text without a syntax (its parse function)");
  }
  // A bad default is a programming error: report it at startup, not on first read.
  if (spec.default_value.empty()) return;
  try {
    check_value(spec, spec.key, spec.default_value);
  } catch (const ConfigError& error) {
    throw std::logic_error(std::string("invalid default: ") + error.what());
  }
}

// Levenshtein distance, two rows.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

// What a declared key looks like next to the user's: a wildcard takes the
// user's own instance name, so that only the typo counts toward the distance.
std::string comparable_key(const ParamSpec& spec, const std::vector<std::string>& given) {
  std::vector<std::string> segments = split_segments(spec.key);
  if (segments.size() != given.size()) return spec.key;
  for (size_t i = 0; i < segments.size(); ++i) {
    if (segments[i] == "*" && is_instance_name(given[i])) segments[i] = given[i];
  }
  return join(segments, ".");
}

// Long keys get one more edit of slack; beyond that a suggestion is a guess.
size_t max_typo_distance(const std::string& key) { return key.size() > 16 ? 3 : 2; }

// Keys longer than this get no suggestion: no declared key is near, and the
// distance to each would cost time in proportion to the length.
constexpr size_t kLongestSuggestedKey = 200;

std::string closest_declared_key(const ParamRegistry& registry, const std::string& key) {
  if (key.size() > kLongestSuggestedKey) return "";
  const std::vector<std::string> given = split_segments(key);
  std::string best;
  size_t best_distance = max_typo_distance(key) + 1;
  for (const ParamSpec& spec : registry.all()) {
    const std::string candidate = comparable_key(spec, given);
    const size_t distance = edit_distance(key, candidate);
    if (distance < best_distance || (distance == best_distance && candidate < best)) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

using DescribeRow = std::array<std::string, 6>;

std::string allowed_column(const ParamSpec& spec) {
  if (!spec.derivation.empty()) {
    ParamSpec plain = spec;
    plain.derivation.clear();
    return "auto, or " + allowed_column(plain);
  }
  if (spec.type == ParamType::choice) return choices_text(spec);
  if (spec.type == ParamType::boolean) return "true/false";
  if (spec.type == ParamType::text) return spec.syntax.allowed;
  return is_bounded(spec) ? declared_range(spec) : "any";
}

DescribeRow describe_row(const ParamSpec& spec) {
  return {spec.key,
          to_string(spec.type),
          spec.default_value.empty() ? "-" : spec.default_value,
          spec.unit.empty() ? "-" : spec.unit,
          allowed_column(spec),
          spec.derivation.empty() ? spec.description : spec.description + "; auto: " + spec.derivation};
}

}  // namespace

const char* to_string(ParamType type) {
  switch (type) {
    case ParamType::integer: return "integer";
    case ParamType::real: return "real";
    case ParamType::boolean: return "boolean";
    case ParamType::duration: return "duration";
    case ParamType::bytes: return "bytes";
    case ParamType::rate: return "rate";
    case ParamType::text: return "text";
    case ParamType::choice: return "choice";
    case ParamType::int_list: return "int_list";
  }
  return "unknown";
}

// ---- ParamRegistry ----------------------------------------------------------

void ParamRegistry::declare(ParamSpec spec) {
  for (const ParamSpec& existing : specs_) {
    if (existing.key == spec.key) throw std::logic_error("parameter '" + spec.key + "' declared twice");
  }
  check_declarable(spec);
  if (spec.platform.empty()) spec.platform = owner_;
  specs_.push_back(std::move(spec));
}

const ParamSpec* ParamRegistry::find(const std::string& key) const {
  for (const ParamSpec& spec : specs_) {
    if (spec.key == key) return &spec;
  }
  for (const ParamSpec& spec : specs_) {
    if (spec.is_pattern() && matches_wildcard(spec.key, key)) return &spec;
  }
  return nullptr;
}

std::string ParamRegistry::describe() const {
  std::vector<const ParamSpec*> sorted;
  for (const ParamSpec& spec : specs_) sorted.push_back(&spec);
  // Shared keys first, then each platform's in the order platforms were declared.
  std::vector<std::string> platforms = {""};
  for (const ParamSpec& spec : specs_)
    if (std::find(platforms.begin(), platforms.end(), spec.platform) == platforms.end())
      platforms.push_back(spec.platform);
  const auto rank = [&](const ParamSpec* s) {
    return std::find(platforms.begin(), platforms.end(), s->platform) - platforms.begin();
  };
  std::sort(sorted.begin(), sorted.end(), [&](const ParamSpec* a, const ParamSpec* b) {
    return std::make_pair(rank(a), a->key) < std::make_pair(rank(b), b->key);
  });

  const DescribeRow heading = {"KEY", "TYPE", "DEFAULT", "UNIT", "ALLOWED", "DESCRIPTION"};
  std::vector<DescribeRow> rows = {heading};
  for (const ParamSpec* spec : sorted) rows.push_back(describe_row(*spec));

  DescribeRow::size_type columns = rows.front().size();
  std::vector<size_t> widths(columns, 0);
  for (const DescribeRow& row : rows) {
    for (size_t c = 0; c < columns; ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  const auto format = [&](const DescribeRow& row) {
    std::string line;
    for (size_t c = 0; c < columns; ++c) {
      line += row[c];
      if (c + 1 < columns) line += std::string(widths[c] - row[c].size() + 2, ' ');
    }
    return trim(line) + "\n";
  };
  std::string table;
  std::string group = "-";
  for (const ParamSpec* spec : sorted) {
    if (spec->platform != group) {
      group = spec->platform;
      table += (table.empty() ? "" : "\n");
      table += group.empty() ? "# keys of every platform\n" : "# platform " + group + " (platform = " + group + ")\n";
      table += format(heading);
    }
    table += format(describe_row(*spec));
  }
  return table;
}

bool ParamSpec::is_pattern() const {
  const std::vector<std::string> segments = split_segments(key);
  return std::find(segments.begin(), segments.end(), "*") != segments.end();
}

void ParamRegistry::rename(std::string old_key, std::string new_key) {
  if (!find(new_key)) throw std::logic_error("rename: '" + new_key + "' is not declared");
  renamed_.emplace_back(std::move(old_key), std::move(new_key));
}

const std::string* ParamRegistry::renamed_to(const std::string& old_key) const {
  for (const auto& [old_name, new_name] : renamed_)
    if (old_name == old_key) return &new_name;
  return nullptr;
}

bool ParamRegistry::knows_of(const std::string& key) const {
  return find(key) || renamed_to(key) || !closest_declared_key(*this, key).empty();
}

ConfigError ParamRegistry::unknown_key(const std::string& key, const std::string& value) const {
  if (const std::string* now = renamed_to(key))  // where the old name is not taken (a sweep's keys)
    return ConfigError(key, value, std::string(kUnknownKeyAllowed) + " -- this key is now '" + *now + "'");
  const std::string suggestion = closest_declared_key(*this, key);
  if (suggestion.empty()) return ConfigError(key, value, kUnknownKeyAllowed);
  return ConfigError(key, value,
                     std::string(kUnknownKeyAllowed) + " -- did you mean '" + suggestion + "'?");
}

}  // namespace fabric::config
