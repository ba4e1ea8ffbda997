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
  if (key.find('[') != std::string::npos) {
    try {
      return &instance_spec(key, "");
    } catch (const ConfigError&) {
      return nullptr;
    }
  }
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

void ParamRegistry::declare_group(InstanceGroup group) {
  if (this->group(group.name)) throw std::logic_error("instance group '" + group.name + "' declared twice");
  if (!group.class_key) {
    const std::string prefix = group.name + ".";
    group.class_key = [prefix](const std::string& rest) { return prefix + rest; };
  }
  groups_.push_back(std::move(group));
}

const InstanceGroup* ParamRegistry::group(const std::string& name) const {
  for (const InstanceGroup& g : groups_)
    if (g.name == name) return &g;
  return nullptr;
}

const InstanceGroup* ParamRegistry::group_of(const ParamSpec& spec) const {
  if (spec.is_pattern()) return nullptr;
  for (const InstanceGroup& g : groups_) {
    if (std::find(g.fabric_wide.begin(), g.fabric_wide.end(), spec.key) != g.fabric_wide.end()) continue;
    if (!g.listed_rests.empty()) {
      for (const std::string& rest : g.listed_rests)
        if (g.class_key(rest) == spec.key) return &g;
      continue;
    }
    const std::string prefix = g.name + ".";
    if (spec.key.compare(0, prefix.size(), prefix) == 0) return &g;
  }
  return nullptr;
}

std::string ParamRegistry::class_key(const InstanceKey& key) const {
  const InstanceGroup* g = group(key.group);
  return g && !key.rest.empty() ? g->class_key(key.rest) : "";
}

const ParamSpec& ParamRegistry::instance_spec(const std::string& key, const std::string& value) const {
  const std::optional<InstanceKey> k = split_instance_key(key);
  std::string groups;
  for (const InstanceGroup& g : groups_) groups += (groups.empty() ? "" : ", ") + g.name + "[SELECTOR].KEY";
  const std::string per_instance = "a per-instance key: " + (groups.empty() ? std::string("none declared") : groups) +
                                   " (see --list-params, '# per-instance keys')";
  if (!k) throw ConfigError(key, value, per_instance);
  const InstanceGroup* g = group(k->group);
  if (!g) {
    const std::string why =
        k->group.empty() ? "" : " ('" + k->group + "' keys are one value for the whole run, not per instance)";
    throw ConfigError(key, value, per_instance + why);
  }
  if (k->rest.empty()) throw ConfigError(key, value, g->name + "[SELECTOR].KEY, SELECTOR " + selector_syntax(*g));
  parse_selection(*g, key, value, k->selector);  // its syntax; its range is the run's to check
  const std::string cls = g->class_key(k->rest);
  const std::string as_given = g->name + "[" + k->selector + "].";
  const ParamSpec* spec = cls.empty() ? nullptr : find(cls);
  if (!spec || spec->is_pattern()) {
    // The typo is in the key's part: suggest among the group's own keys.
    std::vector<std::string> rests;
    for (const ParamSpec& s : specs_) {
      if (group_of(s) != g) continue;
      for (const std::string& r : g->listed_rests)
        if (g->class_key(r) == s.key) rests.push_back(r);
      if (g->listed_rests.empty()) rests.push_back(s.key.substr(g->name.size() + 1));
    }
    const std::vector<std::string> closest = close_names(k->rest, rests, 1);
    std::string allowed = "a key of " + g->name + " given per instance (see --list-params)";
    if (!closest.empty()) allowed += " -- did you mean '" + as_given + closest.front() + "'?";
    throw ConfigError(key, value, allowed);
  }
  if (group_of(*spec) != g)
    throw ConfigError(key, value,
                      "a key given per " + g->name + ": " + spec->key + " is one value for the whole fabric (" +
                          g->fabric_wide_why + "); set it as " + spec->key);
  return *spec;
}

ConfigError ParamRegistry::unknown_key(const std::string& key, const std::string& value) const {
  if (key.find('[') != std::string::npos) {
    try {
      instance_spec(key, value);
    } catch (const ConfigError& error) {
      return error;
    }
  }
  if (const std::string* now = renamed_to(key))  // where the old name is not taken (a sweep's keys)
    return ConfigError(key, value, std::string(kUnknownKeyAllowed) + " -- this key is now '" + *now + "'");
  const std::string suggestion = closest_declared_key(*this, key);
  if (suggestion.empty()) return ConfigError(key, value, kUnknownKeyAllowed);
  return ConfigError(key, value, std::string(kUnknownKeyAllowed) + " -- did you mean '" + suggestion + "'?");
}

}  // namespace fabric::config
