// Config: the values of a run, from defaults, INI files (with include) and
// --set overrides, each checked against its declaration when given; typed
// reads; the check that every key set was used; the resolved configuration.
#include "config/config.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "config/canonical_value.h"
#include "config/split.h"

namespace fabric::config {
namespace {

constexpr const char* kUnusedKeyAllowed = "a key this configuration uses (it was set but nothing read it)";
constexpr const char* kConcreteKeyAllowed = "a concrete key with a name (letters, digits, '_', '-') in place of '*'";
constexpr const char* kIniFileAllowed = "a readable INI file (a regular file: not a FIFO, device or directory)";
constexpr const char* kIniLineAllowed = "section.key = value";
// An included file is read only as far as it is an INI file of fabricsim's
// keys: a study may name any path, and no line of a file that is not one
// (/etc/passwd) is shown.
constexpr const char* kIncludedFileAllowed =
    "a study/INI file ('[section]' headers, 'key = value' lines of declared keys, comments)";
constexpr const char* kUtf8ByteOrderMark = "\xef\xbb\xbf";  // what some editors write first

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

// A malformed line is an error without a key, located at `where` (file:line).
IniLine parse_ini_line(const std::string& line, const std::string& where) {
  const std::string content = trim(strip_comment(line));
  if (content.empty()) return {};
  if (content.front() == '[' && content.back() == ']') {
    const std::string section = trim(content.substr(1, content.size() - 2));
    if (section.empty()) throw ConfigError("", trim(line), "a [section] header with a name", where);
    return {IniLine::Kind::section, section, ""};
  }
  const size_t equals = content.find('=');
  const std::string key = equals == std::string::npos ? "" : trim(content.substr(0, equals));
  if (key.empty()) throw ConfigError("", trim(line), kIniLineAllowed, where);
  return {IniLine::Kind::assignment, key, trim(content.substr(equals + 1))};
}

}  // namespace

// ---- Config -----------------------------------------------------------------

Config::Config(const ParamRegistry& registry) : registry_(registry) {}

const char* to_string(ValueSource source) {
  switch (source) {
    case ValueSource::default_value:
      return "default";
    case ValueSource::derived:
      return "derived";
    case ValueSource::study:
      return "study";
    case ValueSource::config:
      return "config";
    case ValueSource::set:
      return "set";
    case ValueSource::sweep:
      return "sweep";
  }
  return "default";
}

void Config::load_ini(const std::string& path, ValueSource source) { load_ini_file(path, "--config", source); }

void Config::load_ini_file(const std::string& path, const std::string& named_by, ValueSource source,
                           const std::string& included_at) {
  // A FIFO, a device or a directory would block or never end: only a regular file is read.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw ConfigError(named_by, path, kIniFileAllowed);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(named_by, path, kIniFileAllowed);
  std::string section, line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (number == 1 && line.compare(0, 3, kUtf8ByteOrderMark) == 0) line.erase(0, 3);
    const std::string origin = path + ":" + std::to_string(number);
    const auto not_ini = [&](const std::string& why) {
      return ConfigError("include", path,
                         std::string(kIncludedFileAllowed) + ": its line " + std::to_string(number) + " " + why +
                             " (its content is not shown)")
          .located_at(included_at);
    };
    IniLine parsed;
    try {
      parsed = parse_ini_line(line, origin);
    } catch (const ConfigError&) {
      if (!included_at.empty()) throw not_ini("is none of these");
      throw;
    }
    if (parsed.kind == IniLine::Kind::section) section = parsed.name;
    if (parsed.kind != IniLine::Kind::assignment) continue;
    const std::string key = section.empty() ? parsed.name : section + "." + parsed.name;
    const bool keyed_section = section == "sweep" || section == "search";  // checked by the sweep and the search
    if (!included_at.empty() && !keyed_section && key != "include" && !registry_.knows_of(key))
      throw not_ini("sets no declared key");
    try {
      if (section.empty() && parsed.name == "include") {
        // Another file's keys first, relative to this one: a study variant names its base.
        if (include_depth_ == 8) throw ConfigError("include", parsed.value, "at most 8 nested includes (no loop)");
        ++include_depth_;
        load_ini_file((std::filesystem::path(path).parent_path() / parsed.value).string(), "include", source, origin);
        --include_depth_;
      } else if (section == "sweep" && !registry_.find("sweep." + parsed.name)) {  // a swept key, not sweep.*
        sweep_lines_.push_back({parsed.name, parsed.value, origin});
      } else if (section == "search") {  // a goal-seeking search's declaration: scripts/fabricsim-search reads it
        search_lines_.push_back({parsed.name, parsed.value, origin});
      } else {
        assign(key, parsed.value, origin, source);
      }
    } catch (const ConfigError& error) {
      throw error.located_at(origin);  // an included file's error keeps its own line
    }
  }
  // A directory opens fine and fails on the first read.
  if (in.bad()) throw ConfigError(named_by, path, kIniFileAllowed);
}

void Config::set(const std::string& key, const std::string& value, ValueSource source) {
  assign(key, value, "", source);
}

void Config::assign(const std::string& written, const std::string& value, const std::string& origin, ValueSource source,
                    const std::string& option) {
  if (written.find('[') != std::string::npos) {  // an instance key: leaf[3].cache.entries
    check_value(registry_.instance_spec(written, value), written, value);
    values_[written] = value;
    sources_[written] = source;
    if (origin.empty()) {
      origins_.erase(written);
    } else {
      origins_[written] = origin;
    }
    instance_order_.erase(std::remove(instance_order_.begin(), instance_order_.end(), written), instance_order_.end());
    instance_order_.push_back(written);  // given again, it wins over those given since
    return;
  }
  if (!registry_.find(written) && !registry_.renamed_to(written)) throw registry_.unknown_key(written, value);
  const std::string key = names_.current(written, value, origin.empty() ? option : origin);
  const ParamSpec* spec = registry_.find(key);
  if (spec->is_pattern() && key == spec->key) throw ConfigError(key, value, kConcreteKeyAllowed);
  check_value(*spec, key, value);
  values_[key] = value;
  sources_[key] = source;
  if (origin.empty()) {
    origins_.erase(key);
  } else {
    origins_[key] = origin;
  }
}

void Config::set_assignment(const std::string& assignment, ValueSource source) {
  const size_t equals = assignment.find('=');
  const std::string key = equals == std::string::npos ? "" : trim(assignment.substr(0, equals));
  if (key.empty()) throw ConfigError("--set", assignment, "KEY=VALUE");
  assign(key, trim(assignment.substr(equals + 1)), "", source, source == ValueSource::sweep ? "--set-swept" : "--set");
}

const ParamSpec& Config::spec_for(const std::string& key, ParamType type) const {
  const ParamSpec* spec = registry_.find(key);
  if (!spec) throw std::logic_error("configuration key '" + key + "' is read but not declared");
  if (spec->is_pattern() && key == spec->key) {
    throw std::logic_error("configuration key '" + key + "' is a pattern; read a concrete key");
  }
  if (spec->type != type) {
    throw std::logic_error("configuration key '" + key + "' is " + to_string(spec->type) + " but read as " +
                           to_string(type));
  }
  if (mark_reads_) used_.insert(key);
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

std::string Config::get_text(const std::string& key) const { return raw_value(key, spec_for(key, ParamType::text)); }

std::string Config::get_choice(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::choice);
  return require_value(key, raw_value(key, spec));
}

std::vector<int64_t> Config::get_int_list(const std::string& key) const {
  const ParamSpec& spec = spec_for(key, ParamType::int_list);
  return parse_int_list(key, raw_value(key, spec));  // an empty default is an empty list
}

bool Config::is_set(const std::string& key) const { return values_.count(key) > 0; }

bool Config::is_auto(const std::string& key) const {
  const ParamSpec* spec = registry_.find(key);
  if (!spec) throw std::logic_error("configuration key '" + key + "' is read but not declared");
  if (mark_reads_) used_.insert(key);
  return !spec->derivation.empty() && raw_value(key, *spec) == "auto";
}

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
    if (used_.count(key) == 0) throw locate(ConfigError(key, value, kUnusedKeyAllowed));
  }
}

void Config::exempt_from_use_check() {
  for (const auto& entry : values_) used_.insert(entry.first);
}

void Config::select_platform(const std::string& platform) {
  for (const auto& [key, value] : values_) {
    const ParamSpec* spec = registry_.find(key);
    if (spec && !spec->platform.empty() && spec->platform != platform)
      throw locate(ConfigError(key, value,
                               "a key of platform '" + spec->platform + "', not of this run's platform '" + platform +
                                   "' (key 'platform')"));
  }
  platform_ = platform;
}

ResolvedParam Config::resolved(const std::string& key) const {
  ResolvedParam r;
  r.key = key;
  const ParamSpec* spec = registry_.find(key);
  if (const auto it = values_.find(key); it != values_.end()) {
    r.value = it->second;
    r.source = sources_.at(key);
    if (const auto o = origins_.find(key); o != origins_.end()) r.origin = o->second;
  } else if (spec) {
    r.value = spec->default_value;
  }
  // A key given as "auto", or left so, takes the value derived for it.
  if (const auto d = notes_.derived_values().find(key); d != notes_.derived_values().end() && r.value == "auto") {
    r.value = d->second.value;
    r.source = ValueSource::derived;
    r.origin = d->second.numbers;
  }
  if (spec && !r.value.empty()) {
    try {
      r.number = numeric_value(*spec, key, r.value);
    } catch (const ConfigError&) {
      // a value checked when it was set always parses; without a number the row still holds its text
    }
  }
  return r;
}

std::vector<ResolvedParam> Config::resolved_params() const {
  std::set<std::string> keys;
  for (const auto& entry : values_) keys.insert(entry.first);
  for (const auto& entry : notes_.derived_values())  // derived for instances: spine[7].buffer_packets
    if (entry.first.find('[') != std::string::npos) keys.insert(entry.first);
  for (const ParamSpec& spec : registry_.all()) {
    const bool of_run = platform_.empty() || spec.platform.empty() || spec.platform == platform_;
    if (!spec.is_pattern() && of_run) keys.insert(spec.key);
  }
  std::vector<ResolvedParam> params;
  for (const std::string& key : keys) {
    const ParamSpec* spec = registry_.find(key);
    if (!spec || spec->affects_results) params.push_back(resolved(key));
  }
  return params;
}

std::string Config::resolved_text() const {
  std::string text;
  for (const ResolvedParam& p : resolved_params()) text += p.key + " = " + p.value + "\n";
  return text;
}

void Config::fail(const std::string& key, const std::string& allowed) const {
  const auto it = values_.find(key);
  if (it != values_.end()) throw locate(ConfigError(given_as(key), it->second, allowed));
  const ParamSpec* spec = registry_.find(key);
  throw ConfigError(key, spec ? spec->default_value : "", allowed);
}

ConfigError Config::locate(const ConfigError& error) const {
  const auto origin = origins_.find(error.key);
  const auto value = values_.find(error.key);
  // Only an error about the value the file gave: not one about a --set value
  // refused after it.
  const bool from_file = origin != origins_.end() && value != values_.end() && value->second == error.value;
  return from_file ? error.located_at(origin->second) : error;
}

}  // namespace fabric::config
