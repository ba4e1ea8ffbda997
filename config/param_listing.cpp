#include "config/param_listing.h"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <set>
#include <utility>

#include "config/close_names.h"
#include "config/param_range.h"
#include "config/split.h"

namespace fabric::config {
namespace {

using Row = std::array<std::string, 6>;  // KEY, TYPE, DEFAULT, UNIT, ALLOWED, DESCRIPTION
enum Column : size_t { kKey, kType, kDefault, kUnit, kAllowed, kDescription };
const Row kHeading = {"KEY", "TYPE", "DEFAULT", "UNIT", "ALLOWED", "DESCRIPTION"};

constexpr size_t kDescriptionIndent = 4;
// Narrower than this, the ALLOWED column moves to a line of its own.
constexpr size_t kNarrowestAllowedColumn = 20;
// No listing is narrower: a key's words must fit.
constexpr size_t kNarrowestListing = 40;

constexpr const char* kPatternAllowed =
    "a key (leaf.clock_mhz), a group of keys (leaf.voq) or a glob (leaf.voq.*, *.qhi) that names a declared key";

bool has_glob(const std::string& pattern) { return pattern.find_first_of("*?[") != std::string::npos; }

std::string allowed_cell(const ParamSpec& spec) {
  if (!spec.derivation.empty()) {
    ParamSpec plain = spec;
    plain.derivation.clear();
    return "auto, or " + allowed_cell(plain);
  }
  if (spec.type == ParamType::choice) return choices_text(spec);
  if (spec.type == ParamType::boolean) return "true/false";
  if (spec.type == ParamType::text) return spec.syntax.allowed;
  return is_bounded(spec) ? declared_range(spec) : "any";
}

Row row_of(const ParamSpec& spec) {
  return {spec.key,
          to_string(spec.type),
          spec.default_value.empty() ? "-" : spec.default_value,
          spec.unit.empty() ? "-" : spec.unit,
          allowed_cell(spec),
          spec.derivation.empty() ? spec.description : spec.description + "; auto: " + spec.derivation};
}

// The listed keys: the keys every platform reads first, then each
// platform's in the order platforms were declared; by key within each.
std::vector<const ParamSpec*> listed(const ParamRegistry& registry, const std::string& pattern) {
  std::vector<std::string> platforms = {""};
  for (const ParamSpec& spec : registry.all())
    if (std::find(platforms.begin(), platforms.end(), spec.platform) == platforms.end())
      platforms.push_back(spec.platform);
  const auto rank = [&](const ParamSpec* s) {
    return std::find(platforms.begin(), platforms.end(), s->platform) - platforms.begin();
  };
  std::vector<const ParamSpec*> specs;
  for (const ParamSpec& spec : registry.all())
    if (lists(registry, pattern, spec)) specs.push_back(&spec);
  std::sort(specs.begin(), specs.end(), [&](const ParamSpec* a, const ParamSpec* b) {
    return std::make_pair(rank(a), a->key) < std::make_pair(rank(b), b->key);
  });
  return specs;
}

// A heading's lines, each a comment ("# ..."), however narrow the listing.
std::string group_heading(const std::string& platform, size_t width) {
  const std::string text =
      platform.empty() ? "keys of every platform" : "platform " + platform + " (platform = " + platform + ")";
  std::string lines;
  for (const std::string& line : wrap_words(text, width - 2)) lines += "# " + line + "\n";
  return lines;
}

std::string padded(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

void add_wrapped(std::string& out, const std::string& text, size_t indent, size_t width) {
  if (trim(text).empty()) return;
  for (const std::string& line : wrap_words(text, width - indent)) out += std::string(indent, ' ') + line + "\n";
}

// One key: its columns on the first line (ALLOWED wrapped in its column, or
// on lines of its own when the column would be too narrow), then its
// description.
class TextLayout {
 public:
  TextLayout(const std::vector<Row>& rows, size_t width) : width_(std::max(width, kNarrowestListing)) {
    for (const Row& row : rows)
      for (size_t c = kKey; c < kAllowed; ++c) widths_[c] = std::max(widths_[c], row[c].size());
    for (size_t c = kKey; c < kAllowed; ++c) allowed_at_ += widths_[c] + 2;
  }

  std::string format(const Row& row) const {
    std::string head;
    for (size_t c = kKey; c < kAllowed; ++c) head += c + 1 < kAllowed ? padded(row[c], widths_[c] + 2) : row[c];
    std::string out;
    if (allowed_at_ + kNarrowestAllowedColumn <= width_ && allowed_at_ <= width_) {
      const std::vector<std::string> allowed = wrap_words(row[kAllowed], width_ - allowed_at_);
      std::string first = padded(head, allowed_at_) + allowed.front();
      out += first.erase(first.find_last_not_of(' ') + 1) + "\n";
      for (size_t i = 1; i < allowed.size(); ++i) out += std::string(allowed_at_, ' ') + allowed[i] + "\n";
    } else {
      if (head.size() <= width_) {
        out += head + "\n";
      } else {  // the key alone, its type, default and unit below it
        add_wrapped(out, row[kKey], 0, width_);
        add_wrapped(out, row[kType] + "  " + row[kDefault] + "  " + row[kUnit], kDescriptionIndent, width_);
      }
      add_wrapped(out, (row[kKey] == kHeading[kKey] ? "" : "allowed: ") + row[kAllowed], kDescriptionIndent, width_);
    }
    add_wrapped(out, row[kDescription], kDescriptionIndent, width_);
    return out;
  }

 private:
  size_t width_;
  std::array<size_t, kAllowed> widths_{};
  size_t allowed_at_ = 0;
};

// The cells of a TSV line: no tab or line break inside.
std::string cell(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return text;
}

// The per-instance syntax of the groups some listed key belongs to.
std::string instance_groups_text(const ParamRegistry& registry, const std::vector<const ParamSpec*>& specs,
                                 size_t width) {
  std::string text;
  for (const InstanceGroup& g : registry.groups()) {
    std::string example;
    for (const ParamSpec* spec : specs)
      if (registry.group_of(*spec) == &g && example.empty()) example = spec->key;
    if (example.empty()) continue;
    if (text.empty()) {
      text += "\n# per-instance keys\n";
      add_wrapped(text,
                  "A key of a unit the model has many of may be given for one instance or a set of them, in --set, "
                  "study and INI files, --sweep and --vary: GROUP[SELECTOR].KEY. The instances it selects take it in "
                  "place of the class-wide key (a later one wins where two select the same instance); the others "
                  "keep the class-wide value. --explain GROUP[N].KEY shows one instance's value and where it comes "
                  "from.",
                  2, width);
    }
    std::string rests;
    if (!g.listed_rests.empty()) {
      for (const std::string& r : g.listed_rests) rests += (rests.empty() ? "" : ", ") + r;
    } else {
      rests = "every " + g.name + ".* key";
      if (!g.fabric_wide.empty()) {
        rests += " but";
        for (size_t i = 0; i < g.fabric_wide.size(); ++i) rests += (i ? ", " : " ") + g.fabric_wide[i];
        rests += " (" + g.fabric_wide_why + ")";
      }
    }
    text += "  " + g.name + "[SELECTOR].KEY\n";
    add_wrapped(text, "SELECTOR: " + selector_syntax(g) + ". KEY: " + rests + ".", 6, width);
  }
  return text;
}

}  // namespace

bool names_key(const std::string& pattern, const std::string& key) {
  if (pattern.empty() || key == pattern) return true;
  if (has_glob(pattern) && fnmatch(pattern.c_str(), key.c_str(), 0) == 0) return true;
  if (!has_glob(pattern) && (key == pattern || key.rfind(pattern + ".", 0) == 0)) return true;
  // An instance key is also named as its group's key: leaf.cache names leaf[3].cache.entries.
  const std::optional<InstanceKey> instance = split_instance_key(key);
  return instance && !instance->rest.empty() && names_key(pattern, instance->group + "." + instance->rest);
}

bool lists(const ParamRegistry& registry, const std::string& pattern, const ParamSpec& spec) {
  if (names_key(pattern, spec.key)) return true;
  return !has_glob(pattern) && registry.find(pattern) == &spec;  // flow.web.src: flow.*.src
}

std::vector<std::string> wrap_words(const std::string& text, size_t width) {
  width = std::max<size_t>(width, 1);
  std::vector<std::string> lines;
  std::string line;
  for (std::string word : split_on(text, ' ')) {
    if (word.empty()) continue;
    if (!line.empty() && line.size() + 1 + word.size() <= width) {
      line += " " + word;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    while (word.size() > width) {
      lines.push_back(word.substr(0, width));
      word.erase(0, width);
    }
    line = word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string list_params_text(const ParamRegistry& registry, const std::string& pattern, size_t width) {
  const std::vector<const ParamSpec*> specs = listed(registry, pattern);
  if (specs.empty()) return "";
  std::vector<Row> rows = {kHeading};
  for (const ParamSpec* spec : specs) rows.push_back(row_of(*spec));
  const TextLayout layout(rows, width);
  std::string text;
  std::string group = "-";
  for (const ParamSpec* spec : specs) {
    if (spec->platform != group) {
      group = spec->platform;
      text += text.empty() ? "" : "\n";
      text += group_heading(group, std::max(width, kNarrowestListing));
      text += layout.format(kHeading);
    }
    text += layout.format(row_of(*spec));
  }
  text += instance_groups_text(registry, specs, std::max(width, kNarrowestListing));
  return text;
}

std::string list_params_tsv(const ParamRegistry& registry, const std::string& pattern) {
  const std::vector<const ParamSpec*> specs = listed(registry, pattern);
  if (specs.empty()) return "";
  std::string text = "PLATFORM";
  for (const std::string& heading : kHeading) text += "\t" + heading;
  text += "\n";
  for (const ParamSpec* spec : specs) {
    text += cell(spec->platform);
    for (const std::string& value : row_of(*spec)) text += "\t" + cell(value);
    text += "\n";
  }
  return text;
}

ConfigError no_key_listed(const ParamRegistry& registry, const std::string& pattern) {
  // The part before the first wildcard is compared with the keys and their
  // groups (leaf.vq.* -> leaf.voq.*); the rest is kept as the user wrote it.
  const size_t glob_at = has_glob(pattern) ? pattern.find_first_of("*?[") : pattern.size();
  size_t stem_end = glob_at;
  if (stem_end > 0 && stem_end < pattern.size() && pattern[stem_end - 1] == '.') --stem_end;
  const std::string stem = pattern.substr(0, stem_end);
  const std::string rest = pattern.substr(stem_end);
  std::set<std::string> names;
  for (const ParamSpec& spec : registry.all()) {
    const std::vector<std::string> segments = split_on(spec.key, '.');
    std::string prefix;
    for (const std::string& segment : segments) {
      prefix += (prefix.empty() ? "" : ".") + segment;
      names.insert(prefix);
    }
  }
  std::vector<std::string> near;
  if (!stem.empty()) {
    for (const std::string& name : close_names(stem, {names.begin(), names.end()}, 6)) {
      const std::string suggestion = name + rest;
      const bool lists_some = std::any_of(registry.all().begin(), registry.all().end(),
                                          [&](const ParamSpec& spec) { return lists(registry, suggestion, spec); });
      if (lists_some && near.size() < 3) near.push_back(suggestion);
    }
  }
  return ConfigError("--list-params", pattern, std::string(kPatternAllowed) + did_you_mean(near));
}

}  // namespace fabric::config
