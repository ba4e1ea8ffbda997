// Per-instance keys: taking "leaf[0-7,12].cache.entries" apart and reading
// its selector.
#include "config/instance_keys.h"

#include <algorithm>
#include <cctype>

#include "config/config_error.h"
#include "config/split.h"

namespace fabric::config {
namespace {

// More indices than any fabric has units: a typo ("0-9999999"), refused.
constexpr int64_t kMaxIndex = 1'000'000;

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool is_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '*';
  });
}

}  // namespace

std::optional<InstanceKey> split_instance_key(const std::string& key) {
  const size_t open = key.find('[');
  if (open == std::string::npos) return std::nullopt;
  InstanceKey k;
  k.group = key.substr(0, open);
  const size_t close = key.find(']', open);
  if (close == std::string::npos) return k;  // malformed: no rest
  k.selector = key.substr(open + 1, close - open - 1);
  // GROUP[SEL].REST: a dot after the bracket, a rest with no brackets of its own.
  if (close + 1 < key.size() && key[close + 1] == '.') {
    const std::string rest = key.substr(close + 2);
    if (rest.find_first_of("[]") == std::string::npos) k.rest = rest;
  }
  return k;
}

bool name_matches(const std::string& pattern, const std::string& name) {
  // '*' matches any run of characters: the last '*' seen and where its
  // run ends are where a mismatch resumes (linear, no recursion).
  size_t p = 0, n = 0, star = std::string::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool Selection::contains(const std::string& name) const {
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return name_matches(n, name); });
}

std::string selector_syntax(const InstanceGroup& group) {
  if (group.by_name) return "a comma list of " + group.instances + ", where '*' matches any run of characters";
  return "a comma list of " + group.instances + " and ranges A-B: '3', '0-7,12'";
}

Selection parse_selection(const InstanceGroup& group, const std::string& key, const std::string& value,
                          const std::string& selector) {
  const std::string allowed = group.name + "[SELECTOR].KEY with SELECTOR " + selector_syntax(group);
  Selection s;
  for (const std::string& raw : split_on(selector, ',')) {
    const std::string item = trim(raw);
    if (group.by_name) {
      if (!is_name(item)) throw ConfigError(key, value, allowed);
      if (std::find(s.names.begin(), s.names.end(), item) == s.names.end()) s.names.push_back(item);
      continue;
    }
    const size_t dash = item.find('-');
    const std::string first = item.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : item.substr(dash + 1);
    if (!all_digits(first) || !all_digits(last)) throw ConfigError(key, value, allowed);
    const int64_t a = std::stoll(first), b = std::stoll(last);
    if (a > b) throw ConfigError(key, value, allowed + " (a range A-B needs A <= B)");
    if (b >= kMaxIndex) throw ConfigError(key, value, allowed + " (indices below " + std::to_string(kMaxIndex) + ")");
    for (int64_t i = a; i <= b; ++i) s.indices.insert(i);
  }
  return s;
}

}  // namespace fabric::config
