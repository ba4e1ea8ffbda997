#pragma once
// Configuration: every key is declared once (ParamSpec) with type, default,
// unit, range and description; a Config holds the values a run resolved from
// defaults, INI files and --set overrides. No SystemC inside.
//
// Value syntax accepted for each type:
//   integer   42
//   real      0.5
//   boolean   true/false/on/off/1/0/yes/no
//   duration  integer picoseconds, or a number with ps|ns|us|ms|s   -> Picos
//   bytes     integer bytes, or a number with B|KB|MB|GB (KB = 1024 B) -> int64
//   rate      Gb/s as a number, or a number with Gbps|Mbps|G|M        -> double Gb/s
//   text      a syntax of the key's own (ParamSpec::syntax): a list, a tree ...
//   choice    one of ParamSpec::choices
//   int_list  comma-separated integers, ranges a-b allowed: "1,3,5-8"
// Numbers never overflow silently: a value that does not fit is refused,
// with the key's range.
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config_error.h"
#include "config/instance_keys.h"
#include "config/key_names.h"
#include "config/picos.h"
#include "config/resolution_notes.h"

namespace fabric::config {

enum class ParamType { integer, real, boolean, duration, bytes, rate, text, choice, int_list };
const char* to_string(ParamType type);

// The syntax of a text key: its one parse function, which Config::set runs on
// every value given (so that bad input is refused where it is given, with
// the key) and which the code reading the key calls again for the value, and
// a summary of what it accepts for --list-params.
struct TextSyntax {
  std::string allowed;
  std::function<void(const std::string& key, const std::string& text)> check;
};

// The TextSyntax of `Parse`, a function (key, text) -> value that throws
// ConfigError naming the key on bad text.
template <auto Parse>
TextSyntax syntax_of(std::string allowed) {
  return {std::move(allowed),
          [](const std::string& key, const std::string& text) { static_cast<void>(Parse(key, text)); }};
}

struct ParamSpec {
  std::string key;  // "leaf.clock_mhz"; one segment may be '*': "flow.*.src"
  ParamType type = ParamType::integer;
  std::string default_value;  // in the type's syntax; "" means unset unless given
  std::string unit;           // "ps", "B", "Gb/s", "MHz", "" ...
  std::string description;
  double min = -std::numeric_limits<double>::infinity();  // numeric types, in the parsed unit
  double max = std::numeric_limits<double>::infinity();   // (ps for duration, B for bytes)
  std::vector<std::string> choices;                       // ParamType::choice
  TextSyntax syntax;                                      // ParamType::text: required
  // Whether the key can change what a run simulates. A key that cannot
  // (how many threads simulate it) is left out of the run's recorded
  // configuration, so that the database does not depend on it.
  bool affects_results = true;
  // The platform whose key this is ("fabric", "backplane" ...); "" for a
  // key every platform reads (sim.*, record.*, flows). A run of another
  // platform refuses it (Config::select_platform).
  std::string platform;
  // For a key derived unless given: the formula (its default is then
  // "auto", and "auto" is a value it accepts). See param.h.
  std::string derivation;

  // Whether the key is a pattern ("flow.*.src") rather than a concrete key.
  bool is_pattern() const;
};

// A ParamType::text declaration.
ParamSpec text_param(std::string key, std::string default_value, std::string unit, std::string description,
                     TextSyntax syntax);

// Parses `value` as the spec's type and checks the declared range or
// choices, so that bad input is reported where it is given, not when it is
// first read: throws ConfigError naming `key`, with the range in a notation
// the parser accepts.
void check_value(const ParamSpec& spec, const std::string& key, const std::string& value);

class ParamRegistry {
 public:
  void declare(ParamSpec spec);  // duplicate key: std::logic_error
  // Keys declared while an OwnedKeys lives belong to its platform.
  class OwnedKeys {
   public:
    OwnedKeys(ParamRegistry& registry, std::string platform) : registry_(registry) {
      registry_.owner_ = std::move(platform);
    }
    ~OwnedKeys() { registry_.owner_.clear(); }
    OwnedKeys(const OwnedKeys&) = delete;
    OwnedKeys& operator=(const OwnedKeys&) = delete;

   private:
    ParamRegistry& registry_;
  };
  const ParamSpec* find(const std::string& key) const;  // exact first, then wildcard match
  // A key renamed (names made plain): its old name is accepted for one
  // release, with a note, as the new one. renamed_to() is nullptr for a key
  // never renamed.
  void rename(std::string old_key, std::string new_key);
  const std::string* renamed_to(const std::string& old_key) const;
  // Whether `key` is declared, an old name, or near enough to a declared
  // key to be its typo.
  bool knows_of(const std::string& key) const;
  const std::vector<ParamSpec>& all() const { return specs_; }

  // Per-instance keys (instance_keys.h): a group of a platform's units.
  void declare_group(InstanceGroup group);
  const InstanceGroup* group(const std::string& name) const;
  const std::vector<InstanceGroup>& groups() const { return groups_; }
  // The group whose instances `spec` may be given for, or nullptr when the
  // key is one value for the whole run (sim.*, topology.*, fabric-wide keys).
  const InstanceGroup* group_of(const ParamSpec& spec) const;
  // The class-wide key an instance key refines: "leaf.cache.entries" for
  // "leaf[3].cache.entries"; "" when the group has no such key.
  std::string class_key(const InstanceKey& key) const;
  // The declaration of the class-wide key an instance key refines, checking
  // the key's form and its selector's syntax; a ConfigError naming the key,
  // `value` and what is allowed when it is no instance key of a group.
  const ParamSpec& instance_spec(const std::string& key, const std::string& value) const;
  // The error for a key nobody declared, with the closest declared key as a
  // suggestion when one is near enough to be a typo.
  ConfigError unknown_key(const std::string& key, const std::string& value) const;

 private:
  std::vector<ParamSpec> specs_;
  std::vector<std::pair<std::string, std::string>> renamed_;  // (old, new)
  std::string owner_;                                         // see OwnedKeys
  std::vector<InstanceGroup> groups_;
};

// A line of an INI file kept as written: the [sweep] section's.
struct IniEntry {
  std::string key;
  std::string value;
  std::string origin;  // "file:line", or the option that gave it
};

// Where a run's value of a key comes from (run_params.source).
enum class ValueSource { default_value, derived, study, config, set, sweep };
const char* to_string(ValueSource source);

// A key as the run resolved it: for run_params, --explain and
// --list-params --resolved.
struct ResolvedParam {
  std::string key;
  std::string value;
  ValueSource source = ValueSource::default_value;
  std::string origin;            // file:line for a file's value; the formula with the numbers for a derived one
  std::optional<double> number;  // the value in the key's unit (numeric_value), none for text
};

class Config {
 public:
  explicit Config(const ParamRegistry& registry);

  // INI file: "[section]" headers and "key = value" lines give section.key;
  // lines "a.b = v" outside sections are taken as written. '#' and ';' start
  // comments. Later values win. Throws ConfigError (unknown key, bad value,
  // unreadable file with its path), each with the file:line it comes from.
  void load_ini(const std::string& path, ValueSource source = ValueSource::config);
  // The [sweep] section's lines of the files loaded, in order: not keys of
  // a run but its parameter study (sweep_spec.h); a declared key sweep.NAME
  // (sweep.max_points) given there is a key like any other.
  const std::vector<IniEntry>& sweep_lines() const { return sweep_lines_; }
  // The [search] section's lines (vary, minimize, maximize, subject_to,
  // seeds, trials), as written: scripts/fabricsim-search checks them.
  const std::vector<IniEntry>& search_lines() const { return search_lines_; }
  // One override; validates key, syntax and range at once. Throws ConfigError.
  void set(const std::string& key, const std::string& value, ValueSource source = ValueSource::set);
  // "key=value" as given to --set (or, for a sweep's point, its swept values).
  void set_assignment(const std::string& assignment, ValueSource source = ValueSource::set);

  // Typed reads: the set value or the declared default. Each read marks the
  // key used. Reading an undeclared key, or a key of another type, is a
  // programming error: std::logic_error.
  int64_t get_int(const std::string& key) const;
  double get_real(const std::string& key) const;
  bool get_bool(const std::string& key) const;
  Picos get_duration(const std::string& key) const;
  int64_t get_bytes(const std::string& key) const;
  double get_rate_gbps(const std::string& key) const;
  std::string get_text(const std::string& key) const;
  std::string get_choice(const std::string& key) const;
  std::vector<int64_t> get_int_list(const std::string& key) const;

  bool is_set(const std::string& key) const;  // given explicitly (file or --set)
  // Marks a key used (check_all_used), for a read made while reads do not
  // mark (Param reads its value when constructed and marks it when the
  // value is used: a key no code path needs is still reported unused).
  void mark_used(const std::string& key) const { used_.insert(key); }
  class UnmarkedReads {
   public:
    explicit UnmarkedReads(const Config& config) : config_(config), before_(config.mark_reads_) {
      config_.mark_reads_ = false;
    }
    ~UnmarkedReads() { config_.mark_reads_ = before_; }
    UnmarkedReads(const UnmarkedReads&) = delete;
    UnmarkedReads& operator=(const UnmarkedReads&) = delete;

   private:
    const Config& config_;
    bool before_;
  };
  // Whether the key's value is "auto" (a key with a derivation); marks it used.
  bool is_auto(const std::string& key) const;
  // What a run derived and checked (param.h, checks.h), kept for --explain,
  // the run's database and the warnings.
  void note_derived(const std::string& key, const std::string& value, const std::string& numbers,
                    const std::string& spec_value = "") const {
    notes_.derived(key, value, numbers, spec_value);
  }
  void note_check(CheckResult result) const { notes_.check(std::move(result)); }
  const ResolutionNotes& notes() const { return notes_; }
  // What the configuration said by a renamed key's old name, as notes to print.
  const std::vector<std::string>& renamed_keys_used() const { return names_.notes(); }
  // The name each key was given by, and where (key_names.h).
  const KeyNames& key_names() const { return names_; }
  const ParamRegistry& registry() const { return registry_; }
  // Names that fill the '*' of wildcard keys under a prefix, sorted:
  // with flow.f1.src and flow.f2.rate set, instances("flow") = {"f1", "f2"}.
  std::vector<std::string> instances(const std::string& prefix) const;

  // Per-instance keys (instance_keys.h) of `group` given, in the order
  // given, with their selections; marks them used (the platform reading
  // them checks each selection against its units).
  std::vector<InstanceOverride> instance_overrides(const std::string& group) const;
  // What one instance reads: this configuration with the class-wide keys
  // of `group` replaced by the instance's overrides, later ones winning.
  // Its errors (fail) name the instance key that gave the value; its notes
  // start empty (adopt_instance_checks).
  Config instance_view(const std::string& group, int64_t index) const;
  Config instance_view(const std::string& group, const std::string& name) const;
  // The instance key that gave `key` its value in an instance view, or `key`.
  const std::string& given_as(const std::string& key) const;
  // The checks `view` noted that read a key one of its overrides gave, with
  // that key named as given and `label` ("leaf 3") before the check's name.
  void adopt_instance_checks(const Config& view, const std::string& label) const;
  // The values `view` derived for the instances `selector` of `group` (a
  // spine's credit window at its own traversal), recorded as derived under
  // GROUP[SELECTOR].REST where they differ from the class-wide derivation:
  // run_params, --explain and --list-params --resolved show them.
  void adopt_instance_derivations(const Config& view, const std::string& group, const std::string& selector) const;
  // The value one instance takes for `key` ("leaf[3].cache.entries", one
  // instance): the last override given for it, or the class-wide value.
  ResolvedParam resolved_for_instance(const std::string& key) const;

  // The run's platform: a key given that belongs to another one is a
  // ConfigError naming it and its platform; resolved_text() then holds the
  // keys every platform reads and this platform's.
  void select_platform(const std::string& platform);

  // Keys given but never read: ConfigError naming the first one.
  void check_all_used() const;
  // Exempts the keys set so far from check_all_used: a shipped study's keys
  // are no typos, and a user's override may make some of them moot.
  void exempt_from_use_check();
  // The full resolved configuration, one "key = value" per line, sorted:
  // every declared non-wildcard key (with its default, or its derived value,
  // if unset) and every set key; the keys that cannot change the results
  // (affects_results = false) left out.
  std::string resolved_text() const;
  // The same keys with their sources, sorted by key.
  std::vector<ResolvedParam> resolved_params() const;
  // One key as the run resolved it (a declared concrete key or a set one).
  ResolvedParam resolved(const std::string& key) const;

  // Used to raise a range or consistency error found after parsing.
  [[noreturn]] void fail(const std::string& key, const std::string& allowed) const;
  // `error` with the file:line of its key's value when the error is about
  // the value a file gave: for errors raised where a value is used, far from
  // where it was read.
  ConfigError locate(const ConfigError& error) const;

 private:
  int include_depth_ = 0;
  // load_ini of a file named by `named_by` ("--config", or "include" at `included_at`), for its errors.
  void load_ini_file(const std::string& path, const std::string& named_by, ValueSource source,
                     const std::string& included_at = "");
  // set() with where the value comes from ("" for --set), kept for locate(),
  // and the option that gave it ("--set", "--set-swept"; "" for --time, --seed).
  void assign(const std::string& key, const std::string& value, const std::string& origin, ValueSource source,
              const std::string& option = "");
  const ParamSpec& spec_for(const std::string& key, ParamType type) const;
  const std::string& raw_value(const std::string& key, const ParamSpec& spec) const;
  // An instance view with the overrides whose selection `covers`.
  Config view_of(const std::string& group, const std::function<bool(const Selection&)>& covers) const;

  const ParamRegistry& registry_;
  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> origins_;  // "file:line" of the values given in files
  std::map<std::string, ValueSource> sources_;  // of the values given
  mutable ResolutionNotes notes_;
  std::vector<IniEntry> sweep_lines_;
  std::vector<IniEntry> search_lines_;
  std::string platform_;                               // select_platform(); "" keeps every key
  std::vector<std::string> instance_order_;            // instance keys, in the order given
  std::map<std::string, std::string> instance_given_;  // in an instance view: class key -> instance key
  mutable std::set<std::string> used_;
  mutable bool mark_reads_ = true;  // see UnmarkedReads
  KeyNames names_{registry_};
};

// Parsers shared by Config and by callers with their own syntax (traffic specs).
// Each throws ConfigError naming `key` on malformed input.
Picos parse_duration(const std::string& key, const std::string& text);
int64_t parse_bytes(const std::string& key, const std::string& text);
double parse_rate_gbps(const std::string& key, const std::string& text);
int64_t parse_integer(const std::string& key, const std::string& text);
double parse_real(const std::string& key, const std::string& text);
bool parse_bool(const std::string& key, const std::string& text);
std::vector<int64_t> parse_int_list(const std::string& key, const std::string& text);
// The inverse, in the largest unit that states the value exactly: "2us",
// "1500ns", "6KB", "1000B"; each parses back to the same value.
std::string duration_text(Picos ps);
std::string bytes_text(int64_t bytes);

}  // namespace fabric::config
