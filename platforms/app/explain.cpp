#include "platforms/app/explain.h"

#include <algorithm>

#include "config/param_listing.h"
#include "config/param_range.h"

namespace fabric {

namespace {

std::string origin_text(const config::ResolvedParam& p) {
  switch (p.source) {
    case config::ValueSource::default_value:
      return "the default (the spec's value)";
    case config::ValueSource::derived:
      return "derived: " + p.origin;
    case config::ValueSource::study:
      return "the study file, " + p.origin;
    case config::ValueSource::config:
      return "a --config file, " + p.origin;
    case config::ValueSource::set:
      return "--set";
    case config::ValueSource::sweep:
      return "the sweep's point";
  }
  return "";
}

std::string declaration_text(const config::ParamSpec& spec) {
  std::string s = config::to_string(spec.type);
  if (!spec.unit.empty()) s += ", unit " + spec.unit;
  if (spec.type == config::ParamType::choice) s += ", " + config::choices_text(spec);
  if (config::is_bounded(spec)) s += ", range " + config::declared_range(spec);
  s += ", default " + (spec.default_value.empty() ? std::string("none") : spec.default_value);
  if (!spec.derivation.empty()) s += "\n  auto:        " + spec.derivation;
  return s;
}

}  // namespace

std::string joined_keys(const config::CheckResult& check) {
  std::string s;
  for (const std::string& k : check.keys) s += (s.empty() ? "" : ", ") + k;
  return s;
}

void explain_key(const config::Config& config, const config::ParamRegistry& registry, const std::string& asked,
                 std::ostream& out, std::ostream& notes) {
  config::KeyNames names(registry);
  const std::string key = names.current(asked, "", "--explain");
  for (const std::string& note : names.notes()) notes << "fabricsim: note: " << note << "\n";
  const config::ParamSpec* spec = registry.find(key);
  if (!spec || (spec->is_pattern() && spec->key == key))
    throw config::ConfigError("--explain", key, registry.unknown_key(key, "").allowed);
  std::vector<config::ResolvedParam> params = config.resolved_params();
  auto it = std::find_if(params.begin(), params.end(), [&](const config::ResolvedParam& p) { return p.key == key; });
  const bool instance = key.find('[') != std::string::npos;
  if (instance) {  // leaf[3].cache.entries: the override that gave leaf 3 its value, or the class-wide value
    params.push_back(config.resolved_for_instance(key));
    it = params.end() - 1;
  }
  if (it == params.end()) {
    if (!spec->affects_results) {
      out << key << ": a key that does not change the results (not recorded)\n";
      out << "  value:       " << config.resolved(key).value << "\n";
    } else if (spec->is_pattern()) {
      out << key << ": not given in this run (a key of " << spec->key << ", for an instance the run does not have)\n";
    } else {
      out << key << ": a key of platform '" << spec->platform << "', not of this run's\n";
    }
    return;
  }
  out << key << " = " << it->value << "\n";
  out << "  from:        " << origin_text(*it);
  if (instance && it->key != key)
    out << (it->key.find('[') != std::string::npos ? " (given as " : " (the class-wide key ") << it->key << ")";
  out << "\n";
  out << "  declared:    " << declaration_text(*spec) << "\n";
  out << "  description: " << spec->description << "\n";
  // An instance's checks name the key that gave its value (link[*_spine7_*].gbps for link[leaf0_spine7_up].gbps).
  const std::vector<config::CheckResult> checks = config.notes().checks_of(instance ? it->key : key);
  if (checks.empty()) out << "  checks:      none read it in this run\n";
  if (!checks.empty()) out << "  checks:\n";
  for (const config::CheckResult& c : checks) {
    out << "    " << (c.holds ? "holds:  " : "FAILS:  ") << c.name << " (reads " << joined_keys(c) << ")\n";
    if (!c.holds) out << "            " << c.detail << "\n";
  }
  const auto departures = config.notes().departures();
  if (departures.empty()) return;
  out << "  derived away from the spec's values in this run:\n";
  for (const auto& [derived_key, d] : departures)
    out << "    " << derived_key << " = " << d.value << " (the spec's " << d.spec_value << "): " << d.numbers << "\n";
}

void print_departures(const config::ResolutionNotes& notes, std::ostream& out) {
  for (const auto& [key, d] : notes.departures())
    out << "fabricsim: derived: " << key << " = " << d.value << ", not the spec's " << d.spec_value << ": " << d.numbers
        << "\n";
}

void print_resolved_params(const config::Config& config, std::ostream& out, const std::string& pattern) {
  std::vector<config::ResolvedParam> params = config.resolved_params();
  params.erase(std::remove_if(params.begin(), params.end(),
                              [&](const config::ResolvedParam& p) { return !config::names_key(pattern, p.key); }),
               params.end());
  if (params.empty()) throw config::no_key_listed(config.registry(), pattern);
  out << "KEY\tVALUE\tSOURCE\tORIGIN\n";
  for (const config::ResolvedParam& p : params)
    out << p.key << "\t" << p.value << "\t" << config::to_string(p.source) << "\t" << p.origin << "\n";
}

void print_warnings(const std::vector<config::CheckResult>& warnings, std::ostream& out) {
  for (const config::CheckResult& w : warnings) out << "fabricsim: warning: " << w.detail << "\n";
}

}  // namespace fabric
