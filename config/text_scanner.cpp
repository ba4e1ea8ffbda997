// The scanner under every configuration value parser (see text_scanner.h).
#include "config/text_scanner.h"

#include "config/split.h"

namespace fabric::config {
namespace {

// Digits only, at least one; nothing on overflow.
std::optional<uint64_t> digits_value(const std::string& text, size_t begin) {
  if (begin >= text.size()) return std::nullopt;
  uint64_t value = 0;
  for (size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return std::nullopt;
    if (__builtin_mul_overflow(value, 10u, &value) || __builtin_add_overflow(value, uint64_t(c - '0'), &value)) {
      return std::nullopt;
    }
  }
  return value;
}

bool is_digits(const std::string& text, size_t begin) {
  if (begin >= text.size()) return false;
  for (size_t i = begin; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

std::string quoted(const std::string& text) { return "'" + shorten_for_message(text, 40) + "'"; }

template <typename T>
std::string range_of(T min, T max) {
  return std::to_string(min) + " .. " + std::to_string(max);
}

}  // namespace

std::optional<uint64_t> to_uint64(const std::string& text) {
  const size_t begin = !text.empty() && text[0] == '+' ? 1 : 0;
  return digits_value(text, begin);
}

std::optional<int64_t> to_int64(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  const size_t begin = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  const std::optional<uint64_t> magnitude = digits_value(text, begin);
  if (!magnitude) return std::nullopt;
  constexpr uint64_t kMaxMagnitude = uint64_t(kInt64Max);
  if (!negative) {
    if (*magnitude > kMaxMagnitude) return std::nullopt;
    return int64_t(*magnitude);
  }
  if (*magnitude > kMaxMagnitude + 1) return std::nullopt;
  return *magnitude == kMaxMagnitude + 1 ? kInt64Min : -int64_t(*magnitude);
}

int64_t scan_integer(const std::string& text, int64_t min, int64_t max) {
  const std::string number = trim(text);
  if (number.empty()) throw SyntaxError("an integer is missing");
  const std::optional<int64_t> value = to_int64(number);
  const size_t digits_begin = number[0] == '-' || number[0] == '+' ? 1 : 0;
  if (!value && !is_digits(number, digits_begin)) throw SyntaxError(quoted(number) + " is not an integer");
  if (!value || *value < min || *value > max) {
    throw SyntaxError(quoted(number) + " is outside " + range_of(min, max));
  }
  return *value;
}

uint64_t scan_unsigned(const std::string& text, uint64_t max) {
  const std::string number = trim(text);
  if (number.empty()) throw SyntaxError("an integer is missing");
  const std::optional<uint64_t> value = to_uint64(number);
  const size_t digits_begin = number[0] == '+' ? 1 : 0;
  if (!value && !is_digits(number, digits_begin)) {
    throw SyntaxError(quoted(number) + " is not an integer");
  }
  if (!value || *value > max) throw SyntaxError(quoted(number) + " is outside " + range_of(uint64_t(0), max));
  return *value;
}

std::vector<std::string> scan_items(const std::string& text, char separator) {
  std::vector<std::string> items;
  if (trim(text).empty()) return items;
  for (const std::string& piece : split_on(text, separator)) {
    std::string item = trim(piece);
    if (item.empty()) {
      throw SyntaxError("item " + std::to_string(items.size() + 1) + " is empty (a leading, trailing or doubled '" +
                        std::string(1, separator) + "')");
    }
    items.push_back(std::move(item));
  }
  return items;
}

TextPair scan_pair(const std::string& text, char separator) {
  const size_t at = text.find(separator);
  const std::string sep(1, separator);
  if (at == std::string::npos) throw SyntaxError(quoted(text) + " has no '" + sep + "'");
  TextPair pair{trim(text.substr(0, at)), trim(text.substr(at + 1))};
  if (pair.left.empty()) throw SyntaxError(quoted(text) + " has nothing before '" + sep + "'");
  if (pair.right.empty()) throw SyntaxError(quoted(text) + " has nothing after '" + sep + "'");
  return pair;
}

}  // namespace fabric::config
