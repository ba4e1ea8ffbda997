// ParamRegistry and Config: declared keys, validation at the moment a value
// is given, typed reads, and the reports (--list-params, resolved config).
// Value syntax lives in value_parsers.cpp.
#include "model/config/config.h"

#include "model/config/split.h"

#include <algorithm>
#include <filesystem>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace fabric::config {
namespace {

constexpr const char* kUnknownKeyAllowed = "a declared key (see --list-params)";
constexpr const char* kUnusedKeyAllowed =
    "a key this configuration uses (it was set but nothing read it)";
constexpr const char* kConcreteKeyAllowed =
    "a concrete key with a name (letters, digits, '_', '-') in place of '*'";
constexpr const char* kIniFileAllowed = "a readable INI file";
constexpr const char* kIniLineAllowed = "section.key = value";

std::string trim(const std::string& text) {
  const char* whitespace = " \t\r\n\f\v";
  size_t begin = text.find_first_not_of(whitespace);
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(whitespace);
  return text.substr(begin, end - begin + 1);
}

std::vector<std::string> split_segments(const std::string& key) { return split_on(key, '.'); }

bool is_instance_name(const std::string& segment) {
  if (segment.empty()) return false;
  return std::all_of(segment.begin(), segment.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
  });
}

bool is_wildcard(const ParamSpec& spec) {
  const std::vector<std::string> segments = split_segments(spec.key);
  return std::find(segments.begin(), segments.end(), "*") != segments.end();
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

bool is_numeric(ParamType type) {
  switch (type) {
    case ParamType::integer:
    case ParamType::real:
    case ParamType::duration:
    case ParamType::bytes:
    case ParamType::rate:
    case ParamType::int_list: return true;
    default: return false;
  }
}

// Integral bounds print without a fraction ("10000", not "10000.000000").
std::string format_number(double value) {
  char text[64];
  const bool integral = std::fabs(value) < 1e15 && value == std::floor(value);
  std::snprintf(text, sizeof text, integral ? "%.0f" : "%.15g", value);
  return text;
}

// min and max are kept in the parsed unit, whatever unit the spec displays.
std::string range_unit(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::duration: return "ps";
    case ParamType::bytes: return "B";
    case ParamType::rate: return "Gb/s";
    default: return spec.unit;
  }
}

bool is_bounded(const ParamSpec& spec) { return std::isfinite(spec.min) || std::isfinite(spec.max); }

// "1 .. 10000", ">= 1" or "<= 10"; "" when unbounded.
std::string range_text(const ParamSpec& spec) {
  const bool has_min = std::isfinite(spec.min), has_max = std::isfinite(spec.max);
  if (has_min && has_max) return format_number(spec.min) + " .. " + format_number(spec.max);
  if (has_min) return ">= " + format_number(spec.min);
  if (has_max) return "<= " + format_number(spec.max);
  return "";
}

std::string range_with_unit(const ParamSpec& spec) {
  const std::string unit = range_unit(spec);
  return unit.empty() ? range_text(spec) : range_text(spec) + " " + unit;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string joined;
  for (const std::string& item : items) joined += (joined.empty() ? "" : separator) + item;
  return joined;
}

std::string choices_text(const ParamSpec& spec) { return "one of: " + join(spec.choices, ", "); }

bool in_range(const ParamSpec& spec, double value) { return value >= spec.min && value <= spec.max; }

void check_range(const ParamSpec& spec, const std::string& key, const std::string& value,
                 double number) {
  if (!in_range(spec, number)) throw ConfigError(key, value, range_with_unit(spec));
}

// Parses `value` as the spec's type and checks the declared range or choices,
// so that bad input is reported where it was given, not when it is first read.
void validate(const ParamSpec& spec, const std::string& key, const std::string& value) {
  switch (spec.type) {
    case ParamType::integer: check_range(spec, key, value, double(parse_integer(key, value))); break;
    case ParamType::real: check_range(spec, key, value, parse_real(key, value)); break;
    case ParamType::boolean: parse_bool(key, value); break;
    case ParamType::duration: check_range(spec, key, value, double(parse_duration(key, value))); break;
    case ParamType::bytes: check_range(spec, key, value, double(parse_bytes(key, value))); break;
    case ParamType::rate: check_range(spec, key, value, parse_rate_gbps(key, value)); break;
    case ParamType::text: break;
    case ParamType::choice:
      if (std::find(spec.choices.begin(), spec.choices.end(), value) == spec.choices.end()) {
        throw ConfigError(key, value, choices_text(spec));
      }
      break;
    case ParamType::int_list:
      for (int64_t element : parse_int_list(key, value)) {
        if (!in_range(spec, double(element))) {
          throw ConfigError(key, value, "each element " + range_with_unit(spec));
        }
      }
      break;
  }
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
  // A bad default is a programming error: report it at startup, not on first read.
  if (spec.default_value.empty()) return;
  try {
    validate(spec, spec.key, spec.default_value);
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

std::string closest_declared_key(const ParamRegistry& registry, const std::string& key) {
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

ConfigError unknown_key_error(const ParamRegistry& registry, const std::string& key,
                              const std::string& value) {
  const std::string suggestion = closest_declared_key(registry, key);
  if (suggestion.empty()) return ConfigError(key, value, kUnknownKeyAllowed);
  return ConfigError(key, value,
                     std::string(kUnknownKeyAllowed) + " -- did you mean '" + suggestion + "'?");
}

// A numeric, boolean or choice read needs a value: an unset key whose default
// is empty is a declaration mistake, not something the user could fix.
const std::string& require_value(const std::string& key, const std::string& raw) {
  if (raw.empty()) {
    throw std::logic_error("configuration key '" + key + "' is read but has no value and no default");
  }
  return raw;
}

// '#' and ';' start a comment at the start of a line or after whitespace, so
// values such as "a#1" survive.
std::string strip_comment(const std::string& line) {
  for (size_t i = 0; i < line.size(); ++i) {
    const bool marker = line[i] == '#' || line[i] == ';';
    if (marker && (i == 0 || std::isspace(static_cast<unsigned char>(line[i - 1])))) {
      return line.substr(0, i);
    }
  }
  return line;
}

struct IniLine {
  enum class Kind { blank, section, assignment } kind = Kind::blank;
  std::string name;   // section name, or the key as written
  std::string value;  // assignments only
};

IniLine parse_ini_line(const std::string& line, const std::string& where) {
  const std::string content = trim(strip_comment(line));
  if (content.empty()) return {};
  if (content.front() == '[' && content.back() == ']') {
    const std::string section = trim(content.substr(1, content.size() - 2));
    if (section.empty()) throw ConfigError(where, trim(line), "a [section] header with a name");
    return {IniLine::Kind::section, section, ""};
  }
  const size_t equals = content.find('=');
  const std::string key = equals == std::string::npos ? "" : trim(content.substr(0, equals));
  if (key.empty()) throw ConfigError(where, trim(line), kIniLineAllowed);
  return {IniLine::Kind::assignment, key, trim(content.substr(equals + 1))};
}

using DescribeRow = std::array<std::string, 6>;

std::string allowed_column(const ParamSpec& spec) {
  if (spec.type == ParamType::choice) return choices_text(spec);
  if (spec.type == ParamType::boolean) return "true/false";
  if (is_numeric(spec.type)) return is_bounded(spec) ? range_with_unit(spec) : "any";
  return "-";
}

DescribeRow describe_row(const ParamSpec& spec) {
  return {spec.key,
          to_string(spec.type),
          spec.default_value.empty() ? "-" : spec.default_value,
          spec.unit.empty() ? "-" : spec.unit,
          allowed_column(spec),
          spec.description};
}

std::string format_error_message(const std::string& key, const std::string& value,
                                 const std::string& allowed) {
  return "configuration error: key '" + key + "' has value '" + value + "'; allowed: " + allowed;
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

ConfigError::ConfigError(std::string key, std::string value, std::string allowed)
    : std::runtime_error(format_error_message(key, value, allowed)),
      key(std::move(key)),
      value(std::move(value)),
      allowed(std::move(allowed)) {}

// ---- ParamRegistry ----------------------------------------------------------

void ParamRegistry::declare(ParamSpec spec) {
  for (const ParamSpec& existing : specs_) {
    if (existing.key == spec.key) throw std::logic_error("parameter '" + spec.key + "' declared twice");
  }
  check_declarable(spec);
  specs_.push_back(std::move(spec));
}

const ParamSpec* ParamRegistry::find(const std::string& key) const {
  for (const ParamSpec& spec : specs_) {
    if (spec.key == key) return &spec;
  }
  for (const ParamSpec& spec : specs_) {
    if (is_wildcard(spec) && matches_wildcard(spec.key, key)) return &spec;
  }
  return nullptr;
}

std::string ParamRegistry::describe() const {
  std::vector<const ParamSpec*> sorted;
  for (const ParamSpec& spec : specs_) sorted.push_back(&spec);
  std::sort(sorted.begin(), sorted.end(),
            [](const ParamSpec* a, const ParamSpec* b) { return a->key < b->key; });

  std::vector<DescribeRow> rows = {{"KEY", "TYPE", "DEFAULT", "UNIT", "ALLOWED", "DESCRIPTION"}};
  for (const ParamSpec* spec : sorted) rows.push_back(describe_row(*spec));

  DescribeRow::size_type columns = rows.front().size();
  std::vector<size_t> widths(columns, 0);
  for (const DescribeRow& row : rows) {
    for (size_t c = 0; c < columns; ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string table;
  for (const DescribeRow& row : rows) {
    std::string line;
    for (size_t c = 0; c < columns; ++c) {
      line += row[c];
      if (c + 1 < columns) line += std::string(widths[c] - row[c].size() + 2, ' ');
    }
    table += trim(line) + "\n";
  }
  return table;
}

// ---- Config -----------------------------------------------------------------

Config::Config(const ParamRegistry& registry) : registry_(registry) {}

void Config::load_ini(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("--config", path, kIniFileAllowed);
  std::string section, line;
  for (int number = 1; std::getline(in, line); ++number) {
    const IniLine parsed = parse_ini_line(line, path + ":" + std::to_string(number));
    if (parsed.kind == IniLine::Kind::section) section = parsed.name;
    if (parsed.kind == IniLine::Kind::assignment && section.empty() && parsed.name == "include") {
      // Another file's keys first, relative to this one: a study variant names its base.
      if (++include_depth_ > 8) throw ConfigError("include", parsed.value, "at most 8 nested includes (no loop)");
      load_ini((std::filesystem::path(path).parent_path() / parsed.value).string());
      --include_depth_;
    } else if (parsed.kind == IniLine::Kind::assignment) {
      set(section.empty() ? parsed.name : section + "." + parsed.name, parsed.value);
    }
  }
  // A directory opens fine and fails on the first read.
  if (in.bad()) throw ConfigError("--config", path, kIniFileAllowed);
}

void Config::set(const std::string& key, const std::string& value) {
  const ParamSpec* spec = registry_.find(key);
  if (!spec) throw unknown_key_error(registry_, key, value);
  if (is_wildcard(*spec) && key == spec->key) throw ConfigError(key, value, kConcreteKeyAllowed);
  validate(*spec, key, value);
  values_[key] = value;
}

void Config::set_assignment(const std::string& assignment) {
  const size_t equals = assignment.find('=');
  const std::string key = equals == std::string::npos ? "" : trim(assignment.substr(0, equals));
  if (key.empty()) throw ConfigError("--set", assignment, "KEY=VALUE");
  set(key, trim(assignment.substr(equals + 1)));
}

const ParamSpec& Config::spec_for(const std::string& key, ParamType type) const {
  const ParamSpec* spec = registry_.find(key);
  if (!spec) throw std::logic_error("configuration key '" + key + "' is read but not declared");
  if (is_wildcard(*spec) && key == spec->key) {
    throw std::logic_error("configuration key '" + key + "' is a pattern; read a concrete key");
  }
  if (spec->type != type) {
    throw std::logic_error("configuration key '" + key + "' is " + to_string(spec->type) +
                           " but read as " + to_string(type));
  }
  used_.insert(key);
  return *spec;
}

const std::string& Config::raw_value(const std::string& key, const ParamSpec& spec) const {
  const auto it = values_.find(key);
  return it != values_.end() ? it->second : spec.default_value;
}

int64_t Config::get_int(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::integer);
  return parse_integer(key, require_value(key, raw_value(key, spec)));
}

double Config::get_real(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::real);
  return parse_real(key, require_value(key, raw_value(key, spec)));
}

bool Config::get_bool(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::boolean);
  return parse_bool(key, require_value(key, raw_value(key, spec)));
}

Picos Config::get_duration(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::duration);
  return parse_duration(key, require_value(key, raw_value(key, spec)));
}

int64_t Config::get_bytes(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::bytes);
  return parse_bytes(key, require_value(key, raw_value(key, spec)));
}

double Config::get_rate_gbps(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::rate);
  return parse_rate_gbps(key, require_value(key, raw_value(key, spec)));
}

std::string Config::get_text(const std::string& key) const {
  return raw_value(key, spec_for(key, ParamType::text));
}

std::string Config::get_choice(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::choice);
  return require_value(key, raw_value(key, spec));
}

std::vector<int64_t> Config::get_int_list(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::int_list);
  return parse_int_list(key, raw_value(key, spec));  // an empty default is an empty list
}

bool Config::is_set(const std::string& key) const { return values_.count(key) > 0; }

std::vector<std::string> Config::instances(const std::string& prefix) const {
  const std::string head = prefix + ".";
  std::set<std::string> names;
  for (const auto& [key, value] : values_) {
    if (key.compare(0, head.size(), head) != 0) continue;
    const size_t dot = key.find('.', head.size());
    // Only prefix.NAME.rest names an instance; prefix.key is a plain key.
    if (dot == std::string::npos || dot == head.size()) continue;
    names.insert(key.substr(head.size(), dot - head.size()));
  }
  return {names.begin(), names.end()};
}

void Config::check_all_used() const {
  for (const auto& [key, value] : values_) {
    if (used_.count(key) == 0) throw ConfigError(key, value, kUnusedKeyAllowed);
  }
}

void Config::exempt_from_use_check() {
  for (const auto& entry : values_) used_.insert(entry.first);
}

std::string Config::resolved_text() const {
  std::map<std::string, std::string> resolved(values_);
  for (const ParamSpec& spec : registry_.all()) {
    if (!is_wildcard(spec)) resolved.emplace(spec.key, spec.default_value);  // set values win
  }
  std::string text;
  for (const auto& [key, value] : resolved) text += key + " = " + value + "\n";
  return text;
}

void Config::fail(const std::string& key, const std::string& allowed) const {
  const auto it = values_.find(key);
  if (it != values_.end()) throw ConfigError(key, it->second, allowed);
  const ParamSpec* spec = registry_.find(key);
  throw ConfigError(key, spec ? spec->default_value : "", allowed);
}

}  // namespace fabric::config
