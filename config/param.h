#pragma once
// A configuration key declared once, by the member that holds its value (in
// the spirit of VCML's property<T>): its name, default, unit, range,
// description and, for a key whose default is `auto`, the formula it is
// derived by, all in the member's initializer.
//
//   struct LinkRetryKeys {
//     Param<Duration> timeout{"link.retry.timeout", Derived{"2us", "max(the spec's 2 us, 1.5 x the link
//                             ACK round trip)"}, "ps", "no link ACK or NAK for this long ...", 1e5, 1e12};
//   };
//
// What constructing such a group does depends on the ParamScope around it:
// inside ParamScope(registry) each member declares its key (--list-params);
// inside ParamScope(config) each reads its value from the run's
// configuration; outside any scope each holds its default. A key left
// `auto` holds no value until the code that knows the physics derives it
// (Param::derive), which records the value and the numbers behind it in the
// run's configuration (--explain, run_params). No SystemC inside.
#include <initializer_list>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"

namespace fabric::config {

// The kinds of value a key holds: its ParamType, the C++ type it reads to,
// its typed read, and its text (how a derived value is written back).
struct Integer {
  using value_type = int64_t;
  static constexpr ParamType type = ParamType::integer;
  static value_type read(const Config& c, const std::string& key) { return c.get_int(key); }
  static value_type parse(const std::string& key, const std::string& text) { return parse_integer(key, text); }
  static std::string text(value_type v) { return std::to_string(v); }
};
struct Real {
  using value_type = double;
  static constexpr ParamType type = ParamType::real;
  static value_type read(const Config& c, const std::string& key) { return c.get_real(key); }
  static value_type parse(const std::string& key, const std::string& text) { return parse_real(key, text); }
  static std::string text(value_type v);
};
struct Boolean {
  using value_type = bool;
  static constexpr ParamType type = ParamType::boolean;
  static value_type read(const Config& c, const std::string& key) { return c.get_bool(key); }
  static value_type parse(const std::string& key, const std::string& text) { return parse_bool(key, text); }
  static std::string text(value_type v) { return v ? "true" : "false"; }
};
struct Duration {
  using value_type = Picos;
  static constexpr ParamType type = ParamType::duration;
  static value_type read(const Config& c, const std::string& key) { return c.get_duration(key); }
  static value_type parse(const std::string& key, const std::string& text) { return parse_duration(key, text); }
  static std::string text(value_type v);  // in the largest unit that keeps it whole: "2us"
};
struct Bytes {
  using value_type = int64_t;
  static constexpr ParamType type = ParamType::bytes;
  static value_type read(const Config& c, const std::string& key) { return c.get_bytes(key); }
  static value_type parse(const std::string& key, const std::string& text) { return parse_bytes(key, text); }
  static std::string text(value_type v);  // "6KB", "1500B"
};
struct Rate {
  using value_type = double;  // Gb/s
  static constexpr ParamType type = ParamType::rate;
  static value_type read(const Config& c, const std::string& key) { return c.get_rate_gbps(key); }
  static value_type parse(const std::string& key, const std::string& text) { return parse_rate_gbps(key, text); }
  static std::string text(value_type v) { return Real::text(v); }
};
struct Choice {
  using value_type = std::string;
  static constexpr ParamType type = ParamType::choice;
  static value_type read(const Config& c, const std::string& key) { return c.get_choice(key); }
  static value_type parse(const std::string&, const std::string& text) { return text; }
  static std::string text(const value_type& v) { return v; }
};
struct Text {
  using value_type = std::string;
  static constexpr ParamType type = ParamType::text;
  static value_type read(const Config& c, const std::string& key) { return c.get_text(key); }
  static value_type parse(const std::string&, const std::string& text) { return text; }
  static std::string text(const value_type& v) { return v; }
};
struct IntList {
  using value_type = std::vector<int64_t>;
  static constexpr ParamType type = ParamType::int_list;
  static value_type read(const Config& c, const std::string& key) { return c.get_int_list(key); }
  static value_type parse(const std::string& key, const std::string& text) { return parse_int_list(key, text); }
  static std::string text(const value_type& v);
};

// In place of a default: the key is `auto` unless given, and derived by
// this formula (shown by --list-params and --explain). `spec_value`, when
// the spec gives one, is the value the formula keeps at the shipped
// systems (it takes the larger of it and what the physics needs).
struct Derived {
  std::string spec_value;
  std::string formula;
};

// Where the Params constructed while it lives go: declared into a registry,
// or read from a run's configuration. Scopes nest; one per thread.
class ParamScope {
 public:
  explicit ParamScope(ParamRegistry& registry);
  explicit ParamScope(const Config& config);
  ~ParamScope();
  ParamScope(const ParamScope&) = delete;
  ParamScope& operator=(const ParamScope&) = delete;

  static ParamScope* current();
  ParamRegistry* registry() const { return registry_; }
  const Config* config() const { return config_; }

 private:
  ParamRegistry* registry_ = nullptr;
  const Config* config_ = nullptr;
  ParamScope* previous_;
};

namespace detail {
// Declares `spec` in the current scope's registry, if there is one; returns
// the configuration to read from (nullptr: the default).
const Config* bind(ParamSpec&& spec);
[[noreturn]] void underived(const std::string& key);
}  // namespace detail

template <class Kind>
class Param {
 public:
  using value_type = typename Kind::value_type;
  static constexpr double kNoMin = -std::numeric_limits<double>::infinity();
  static constexpr double kNoMax = std::numeric_limits<double>::infinity();

  // A numeric or boolean key (min and max in the parsed unit: ps, B, Gb/s).
  Param(std::string key, std::string default_text, std::string unit, std::string description, double min = kNoMin,
        double max = kNoMax)
      : Param(spec(std::move(key), std::move(default_text), std::move(unit), std::move(description), min, max)) {}
  // A key derived unless given.
  Param(std::string key, Derived derived, std::string unit, std::string description, double min = kNoMin,
        double max = kNoMax)
      : Param(derived_spec(spec(std::move(key), "auto", std::move(unit), std::move(description), min, max),
                           std::move(derived.formula))) {
    if (!derived.spec_value.empty()) spec_value_ = Kind::parse(key_, derived.spec_value);
  }
  // A choice key.
  Param(std::string key, std::string default_text, std::string description, std::initializer_list<const char*> choices)
      : Param(choice_spec(std::move(key), std::move(default_text), std::move(description),
                          {choices.begin(), choices.end()})) {}
  // A text key with its syntax.
  Param(std::string key, std::string default_text, std::string unit, std::string description, TextSyntax syntax)
      : Param(text_param(std::move(key), std::move(default_text), std::move(unit), std::move(description),
                         std::move(syntax))) {}
  // Any declaration (its type is the kind's).
  explicit Param(ParamSpec declaration) : key_(declaration.key) {
    declaration.type = Kind::type;
    const bool pattern = declaration.is_pattern();
    const bool derived_default = !declaration.derivation.empty();
    const std::string default_text = declaration.default_value;
    config_ = detail::bind(std::move(declaration));
    if (pattern) return;  // read per instance: PatternParam
    // A key with no default and not given has no value (has_value()).
    const bool empty_allowed = Kind::type == ParamType::text || Kind::type == ParamType::int_list;
    if (config_) {
      const Config::UnmarkedReads unmarked(*config_);  // marked when the value is used
      auto_ = config_->is_auto(key_);
      if (!auto_ && (config_->is_set(key_) || !default_text.empty() || empty_allowed))
        value_ = Kind::read(*config_, key_);
    } else if (derived_default) {
      auto_ = true;
    } else if (!default_text.empty() || empty_allowed) {
      value_ = Kind::parse(key_, default_text);
    }
  }

  const std::string& key() const { return key_; }
  bool has_value() const { return value_.has_value(); }
  // The value given, derived or by default; reading an `auto` key before it
  // is derived, or a key with no value, is a programming error.
  const value_type& value() const {
    if (!value_) detail::underived(key_);
    if (config_) config_->mark_used(key_);
    return *value_;
  }
  operator const value_type&() const { return value(); }  // NOLINT: reads like the value it holds
  // Whether the key is `auto` (derived by the code that knows the physics).
  bool is_auto() const { return auto_; }
  // A derived key's value in the spec, if it gives one.
  const std::optional<value_type>& spec_value() const { return spec_value_; }
  // Whether the run's configuration gives it (a study, a file, --set).
  bool given() const { return config_ && config_->is_set(key_); }
  // For an `auto` key: takes `derived`, and records it with `numbers` (the
  // formula with this run's values) for --explain and run_params. A given
  // value stays as it is.
  void derive(value_type derived, const std::string& numbers) {
    if (!auto_) return;
    value_ = std::move(derived);
    if (config_) config_->note_derived(key_, Kind::text(*value_), numbers, spec_value_ ? Kind::text(*spec_value_) : "");
  }
  // The value as text in the key's syntax.
  std::string text() const { return Kind::text(value()); }
  // A range or consistency error found where the value is used: a
  // ConfigError naming the key, its value (and the file:line that gave it)
  // and what is allowed.
  [[noreturn]] void fail(const std::string& allowed) const {
    if (config_ && config_->is_set(key_)) config_->fail(key_, allowed);
    throw ConfigError(key_, value_ ? Kind::text(*value_) : "auto", allowed);
  }

 private:
  static ParamSpec spec(std::string key, std::string default_text, std::string unit, std::string description,
                        double min, double max) {
    return ParamSpec{
        std::move(key), Kind::type, std::move(default_text), std::move(unit), std::move(description), min, max};
  }
  static ParamSpec derived_spec(ParamSpec s, std::string formula) {
    s.derivation = std::move(formula);
    return s;
  }
  static ParamSpec choice_spec(std::string key, std::string default_text, std::string description,
                               std::vector<std::string> choices) {
    ParamSpec s = spec(std::move(key), std::move(default_text), "", std::move(description), -1, 1);
    s.choices = std::move(choices);
    return s;
  }

  std::string key_;
  std::optional<value_type> value_;
  std::optional<value_type> spec_value_;
  const Config* config_ = nullptr;
  bool auto_ = false;
};

// A key of many instances ("flow.*.src"): declared once by its pattern (as
// a Param is), read per instance name.
template <class Kind>
class PatternParam : public Param<Kind> {
 public:
  using typename Param<Kind>::value_type;
  using Param<Kind>::Param;

  // The concrete key of instance `name`: the pattern with `name` for '*'.
  std::string key_of(const std::string& name) const {
    const std::string& pattern = this->key();
    const size_t star = pattern.find('*');
    return pattern.substr(0, star) + name + pattern.substr(star + 1);
  }
  value_type of(const Config& c, const std::string& name) const { return Kind::read(c, key_of(name)); }
  bool given_in(const Config& c, const std::string& name) const { return c.is_set(key_of(name)); }
};

}  // namespace fabric::config
