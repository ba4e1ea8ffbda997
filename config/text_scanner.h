#pragma once
// The building blocks of every configuration value parser: whole-text
// decimal integers with overflow detection and a range, and lists whose
// separators refuse empty items. A failure is a SyntaxError saying what is
// wrong; the typed parser of a key turns it into a ConfigError naming the
// key, the value and what the key allows (parse_or_fail). No SystemC inside.
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config_error.h"

namespace fabric::config {

class SyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr uint64_t kUint64Max = std::numeric_limits<uint64_t>::max();

// The whole of `text` as a decimal integer: an optional sign and digits,
// nothing else (no blanks); nothing when it is not one or does not fit.
std::optional<int64_t> to_int64(const std::string& text);
std::optional<uint64_t> to_uint64(const std::string& text);  // no sign

// `text`, surrounding blanks ignored, as a decimal integer in [min, max].
// Throws SyntaxError naming the text and the range.
int64_t scan_integer(const std::string& text, int64_t min = kInt64Min, int64_t max = kInt64Max);
uint64_t scan_unsigned(const std::string& text, uint64_t max = kUint64Max);

// The items of a `separator`-separated list, each trimmed. Blank text is no
// items; an empty item (a leading, trailing or doubled separator) is a
// SyntaxError, never skipped.
std::vector<std::string> scan_items(const std::string& text, char separator);

// "left<separator>right" split at the first separator, both sides trimmed
// and non-empty; SyntaxError otherwise.
struct TextPair {
  std::string left, right;
};
TextPair scan_pair(const std::string& text, char separator);

// What `parse` returns; a SyntaxError it throws becomes the ConfigError of
// `key` with `text` as the value: "<allowed> -- <what was wrong>".
template <class Parse>
auto parse_or_fail(const std::string& key, const std::string& text, const std::string& allowed, Parse&& parse)
    -> decltype(parse()) {
  try {
    return parse();
  } catch (const SyntaxError& e) {
    throw ConfigError(key, text, allowed + " -- " + e.what());
  }
}

}  // namespace fabric::config
