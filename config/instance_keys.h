#pragma once
// Per-instance keys: a key of a unit the model has many of (a leaf, a
// spine, a CNA, a link) given for one instance or a set of them, in the
// same registry as the class-wide key it refines:
//
//   leaf[3].cache.entries = 32          leaf 3 only
//   leaf[0-7,12].voq.threshold = 30KB   leaves 0..7 and 12
//   link[leaf12_spine3_up].errors.ber = 1e-6
//   link[*_spine7_*].gbps = 12.5         every link of spine 7, both ways
//
// A platform declares its instance groups (ParamRegistry::declare_group):
// the group's name, how its instances are selected (indices, or names such
// as the model's link names), the class-wide keys an instance refines and
// those that stay fabric-wide. A selector is checked where it is given (its
// syntax) and where the run knows its units (its range). No SystemC inside.
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fabric::config {

struct InstanceGroup {
  std::string name;       // "leaf": keys leaf[SEL].REST
  std::string instances;  // what a selector names, for messages: "leaf indices 0 .. leaves-1"
  bool by_name = false;   // selectors are names (links), not indices
  // The class-wide key an instance key's REST refines ("cache.entries" ->
  // "leaf.cache.entries"); empty: not a key of the group. Default: NAME.REST.
  std::function<std::string(const std::string& rest)> class_key;
  // The class-wide key one named instance takes when no override names it,
  // when that depends on the instance (a link's errors.CLASS.*); empty: class_key.
  std::function<std::string(const std::string& name, const std::string& rest)> instance_class_key;
  // Class-wide keys under the group that stay one value for every
  // instance (what other units read too), with why, for the error.
  std::vector<std::string> fabric_wide;
  std::string fabric_wide_why;
  // The REST of the keys listed by --list-params for a group with its own class_key.
  std::vector<std::string> listed_rests;
};

// "leaf[3].cache.entries" taken apart; nullopt for a key with no '['.
struct InstanceKey {
  std::string group;     // "leaf"
  std::string selector;  // "3", "0-7,12", "leaf12_spine3_up"
  std::string rest;      // "cache.entries"
};
std::optional<InstanceKey> split_instance_key(const std::string& key);

// Whether `name` matches `pattern`, in which '*' matches any run of
// characters ("*_spine7_*" matches "leaf3_spine7_up").
bool name_matches(const std::string& pattern, const std::string& name);

// What a selector names: indices (sorted, each once) or names (in order,
// each once; a name may hold '*'). Throws ConfigError naming `key` and
// `value` when malformed.
struct Selection {
  std::set<int64_t> indices;
  std::vector<std::string> names;  // patterns: contains() matches them
  bool contains(int64_t index) const { return indices.count(index) > 0; }
  bool contains(const std::string& name) const;
};
Selection parse_selection(const InstanceGroup& group, const std::string& key, const std::string& value,
                          const std::string& selector);

// The syntax of a selector, for messages and --list-params.
std::string selector_syntax(const InstanceGroup& group);

// One instance key a run was given, in the order given (a later one wins
// over an earlier one for the instances they share).
struct InstanceOverride {
  std::string key;        // as given: "leaf[0-7].cache.entries"
  std::string class_key;  // "leaf.cache.entries"
  std::string value;
  Selection selection;
};

}  // namespace fabric::config
