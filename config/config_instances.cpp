// Per-instance keys in the configuration (instance_keys.h): the overrides
// given for a group, an instance's view of the configuration, and what the
// views checked and derived, adopted under the instance keys.
#include <algorithm>

#include "config/config.h"

namespace fabric::config {

std::vector<InstanceOverride> Config::instance_overrides(const std::string& group) const {
  std::vector<InstanceOverride> overrides;
  const InstanceGroup* g = registry_.group(group);
  if (!g) return overrides;
  for (const std::string& key : instance_order_) {
    const std::optional<InstanceKey> k = split_instance_key(key);
    if (!k || k->group != group) continue;
    const std::string& value = values_.at(key);
    overrides.push_back({key, g->class_key(k->rest), value, parse_selection(*g, key, value, k->selector)});
    used_.insert(key);
  }
  return overrides;
}

Config Config::view_of(const std::string& group, const std::function<bool(const Selection&)>& covers) const {
  Config view(*this);
  view.notes_ = ResolutionNotes();
  view.instance_given_.clear();
  for (const InstanceOverride& o : instance_overrides(group)) {
    if (!covers(o.selection)) continue;
    view.values_[o.class_key] = o.value;
    view.sources_[o.class_key] = sources_.at(o.key);
    view.origins_.erase(o.class_key);
    if (const auto it = origins_.find(o.key); it != origins_.end()) view.origins_[o.class_key] = it->second;
    view.instance_given_[o.class_key] = o.key;
  }
  return view;
}

Config Config::instance_view(const std::string& group, int64_t index) const {
  return view_of(group, [index](const Selection& s) { return s.contains(index); });
}

Config Config::instance_view(const std::string& group, const std::string& name) const {
  return view_of(group, [&name](const Selection& s) { return s.contains(name); });
}

const std::string& Config::given_as(const std::string& key) const {
  const auto it = instance_given_.find(key);
  return it == instance_given_.end() ? key : it->second;
}

void Config::adopt_instance_checks(const Config& view, const std::string& label) const {
  for (CheckResult check : view.notes().checks()) {
    bool reads_override = false;
    for (std::string& key : check.keys) {
      if (view.instance_given_.count(key) == 0) continue;
      key = view.given_as(key);
      reads_override = true;
    }
    if (!reads_override) continue;
    check.name = label + ": " + check.name;
    check.detail = label + ": " + check.detail;
    notes_.check(std::move(check));
  }
}

void Config::adopt_instance_derivations(const Config& view, const std::string& group,
                                        const std::string& selector) const {
  const std::string prefix = group + ".";
  for (const auto& [key, d] : view.notes_.derived_values()) {
    if (key.compare(0, prefix.size(), prefix) != 0) continue;
    const auto class_wide = notes_.derived_values().find(key);
    if (class_wide != notes_.derived_values().end() && class_wide->second.value == d.value) continue;
    notes_.derived(group + "[" + selector + "]." + key.substr(prefix.size()), d.value,
                   group + " " + selector + ": " + d.numbers, d.spec_value);
  }
}

ResolvedParam Config::resolved_for_instance(const std::string& key) const {
  const std::optional<InstanceKey> k = split_instance_key(key);
  const InstanceGroup* g = k ? registry_.group(k->group) : nullptr;
  if (!g) return resolved(key);
  const Selection asked = parse_selection(*g, key, "", k->selector);
  // One named instance of a group whose class-wide key depends on it (a link's class).
  const bool one_name = g->instance_class_key && asked.names.size() == 1;
  const std::string cls = one_name ? g->instance_class_key(asked.names.front(), k->rest) : g->class_key(k->rest);
  ResolvedParam r = resolved(cls);
  for (const std::string& given : instance_order_) {
    const std::optional<InstanceKey> o = split_instance_key(given);
    if (!o || o->group != k->group || o->rest != k->rest) continue;
    const Selection covers = parse_selection(*g, given, values_.at(given), o->selector);
    const bool all = g->by_name ? std::all_of(asked.names.begin(), asked.names.end(),
                                              [&](const std::string& n) { return covers.contains(n); })
                                : std::all_of(asked.indices.begin(), asked.indices.end(),
                                              [&](int64_t i) { return covers.contains(i); });
    if (all) r = resolved(given);
  }
  // A value derived for the instance (adopt_instance_derivations), where no override gave one.
  if (r.source != ValueSource::derived) return r;
  for (const auto& [derived_key, d] : notes_.derived_values()) {
    const std::optional<InstanceKey> o = split_instance_key(derived_key);
    if (!o || o->group != k->group || o->rest != k->rest) continue;
    const Selection covers = parse_selection(*g, derived_key, d.value, o->selector);
    if (std::all_of(asked.indices.begin(), asked.indices.end(), [&](int64_t i) { return covers.contains(i); }) &&
        !asked.indices.empty())
      r = resolved(derived_key);
  }
  return r;
}

}  // namespace fabric::config
