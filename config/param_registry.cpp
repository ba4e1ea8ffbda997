// ParamRegistry: the declared keys, the check of a value against its
// declaration and suggestions for a mistyped key (--list-params: param_listing.cpp).
// Value syntax lives in value_parsers.cpp; the values of a run in config.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "config/close_names.h"
#include "config/config.h"
#include "config/param_range.h"
#include "config/split.h"

namespace fabric::config {
namespace {

constexpr const char* kUnknownKeyAllowed = "a declared key (see --list-params)";

std::vector<std::string> split_segments(const std::string& key) { return split_on(key, '.'); }

bool is_instance_name(const std::string& segment) {
  if (segment.empty()) return false;
  return std::all_of(segment.begin(), segment.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
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

std::string closest_declared_key(const ParamRegistry& registry, const std::string& key) {
  const std::vector<std::string> given = split_segments(key);
  std::vector<std::string> candidates;
  for (const ParamSpec& spec : registry.all()) candidates.push_back(comparable_key(spec, given));
  const std::vector<std::string> closest = close_names(key, candidates, 1);
  return closest.empty() ? "" : closest.front();
}

}  // namespace

const char* to_string(ParamType type) {
  switch (type) {
    case ParamType::integer:
      return "integer";
    case ParamType::real:
      return "real";
    case ParamType::boolean:
      return "boolean";
    case ParamType::duration:
      return "duration";
    case ParamType::bytes:
      return "bytes";
    case ParamType::rate:
      return "rate";
    case ParamType::text:
      return "text";
    case ParamType::choice:
      return "choice";
    case ParamType::int_list:
      return "int_list";
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
  return ConfigError(key, value, std::string(kUnknownKeyAllowed) + " -- did you mean '" + suggestion + "'?");
}

}  // namespace fabric::config
