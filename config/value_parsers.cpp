// Parsers for the value syntax of each configuration type (see config.h).
// Every parser ignores surrounding whitespace and reports malformed text as a
// ConfigError naming the key, the text as given and an example of the syntax.
// Range checks are not done here: they belong to the declared ParamSpec.
#include <cmath>
#include <cstdlib>
#include <optional>

#include "config/config.h"
#include "config/split.h"
#include "config/text_scanner.h"

namespace fabric::config {
namespace {

constexpr const char* kDurationSyntax = "a duration such as 150ns, 3us, 2ms";
constexpr const char* kBytesSyntax = "a size such as 1500, 64KB, 2MB";
constexpr const char* kRateSyntax = "a rate in Gb/s such as 100, 25G, 400Mbps";
constexpr const char* kIntegerSyntax = "an integer";
constexpr const char* kRealSyntax = "a finite real number";
constexpr const char* kBoolSyntax = "true/false, on/off, yes/no or 1/0";
constexpr const char* kIntListSyntax = "comma-separated integers and ranges a-b with a <= b, such as 1,3,5-8";

// A typo such as "0-4000000000" must fail here instead of allocating
// gigabytes before any range check gets to see the list.
constexpr uint64_t kMaxIntListLength = 1'000'000;
constexpr const char* kIntListTooLong = "a list of at most 1000000 integers";

struct UnitScale {
  const char* unit;
  int64_t scale;  // base units (ps, B) per unit
};
constexpr UnitScale kDurationUnits[] = {
    {"ps", 1}, {"ns", 1'000}, {"us", 1'000'000}, {"ms", 1'000'000'000}, {"s", 1'000'000'000'000}};
constexpr UnitScale kByteUnits[] = {{"B", 1}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}};

// `value` in the largest of `units` that states it exactly (the parser's syntax).
template <size_t N>
std::string exact_text(int64_t value, const UnitScale (&units)[N]) {
  for (size_t i = N; i-- > 1;)
    if (value != 0 && value % units[i].scale == 0) return std::to_string(value / units[i].scale) + units[i].unit;
  return std::to_string(value) + units[0].unit;
}

struct RateUnit {
  const char* unit;
  double gbps;  // Gb/s per unit
};
// "Gb/s" is how --list-params shows the unit, so it is accepted as written too.
constexpr RateUnit kRateUnits[] = {{"Gbps", 1.0},  {"G", 1.0},  {"Gb/s", 1.0},
                                   {"Mbps", 1e-3}, {"M", 1e-3}, {"Mb/s", 1e-3}};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

size_t skip_digits(const std::string& text, size_t pos) {
  while (pos < text.size() && is_digit(text[pos])) ++pos;
  return pos;
}

// Length of the decimal number at the start of `text`:
// [+-] digits [. digits] [e [+-] digits]. Our own grammar rather than
// strtod's so that "inf", "nan" and hex floats never pass as numbers, and
// whatever follows the number is exactly the unit.
size_t decimal_prefix_length(const std::string& text) {
  size_t pos = 0;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) ++pos;
  const size_t integer_end = skip_digits(text, pos);
  size_t end = integer_end;
  if (end < text.size() && text[end] == '.') end = skip_digits(text, end + 1);
  const bool has_digits = integer_end > pos || end > integer_end + 1;
  if (!has_digits) return 0;
  if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
    size_t exponent = end + 1;
    if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-')) ++exponent;
    const size_t exponent_end = skip_digits(text, exponent);
    if (exponent_end > exponent) end = exponent_end;
  }
  return end;
}

struct NumberAndUnit {
  std::string number;  // decimal text, as matched by decimal_prefix_length
  std::string unit;    // the rest, trimmed; "" when there is none
};

std::optional<NumberAndUnit> split_number_and_unit(const std::string& text) {
  const std::string trimmed = trim(text);
  const size_t length = decimal_prefix_length(trimmed);
  if (length == 0) return std::nullopt;
  return NumberAndUnit{trimmed.substr(0, length), trim(trimmed.substr(length))};
}

bool is_integer_literal(const std::string& number) { return number.find_first_of(".eE") == std::string::npos; }

// number * scale, rounded to the nearest integer. Integer literals are scaled
// in integer arithmetic so that large picosecond counts keep every digit.
std::optional<int64_t> scale_to_int64(const std::string& number, int64_t scale) {
  if (is_integer_literal(number)) {
    const std::optional<int64_t> value = to_int64(number);
    int64_t scaled = 0;
    if (!value || __builtin_mul_overflow(*value, scale, &scaled)) return std::nullopt;
    return scaled;
  }
  const double scaled = std::strtod(number.c_str(), nullptr) * static_cast<double>(scale);
  const double int64_limit = std::ldexp(1.0, 63);  // exactly 2^63
  if (!std::isfinite(scaled) || std::fabs(scaled) >= int64_limit) return std::nullopt;
  return std::llround(scaled);
}

template <typename Unit, size_t N>
const Unit* find_unit(const Unit (&units)[N], const std::string& name) {
  for (const Unit& unit : units) {
    if (name == unit.unit) return &unit;
  }
  return nullptr;
}

// Shared by durations and sizes: a bare integer is in the base unit (ps, B),
// which has no fractions; with a unit the number may be fractional.
template <size_t N>
int64_t parse_scaled(const std::string& key, const std::string& text, const UnitScale (&units)[N], const char* syntax) {
  const std::optional<NumberAndUnit> parts = split_number_and_unit(text);
  if (!parts) throw ConfigError(key, text, syntax);
  int64_t scale = 1;
  if (parts->unit.empty()) {
    if (!is_integer_literal(parts->number)) throw ConfigError(key, text, syntax);
  } else {
    const UnitScale* unit = find_unit(units, parts->unit);
    if (!unit) throw ConfigError(key, text, syntax);
    scale = unit->scale;
  }
  const std::optional<int64_t> value = scale_to_int64(parts->number, scale);
  if (!value) throw ConfigError(key, text, syntax);
  return *value;
}

std::string to_lower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

struct IntRange {
  int64_t first, last;  // inclusive
};

// One list item: "5" or "5-8". The dash that separates a range is the first
// one after the first character, so negative bounds parse: "-3--1" is -3..-1.
std::optional<IntRange> parse_list_item(const std::string& item) {
  const size_t dash = item.find('-', 1);
  if (dash == std::string::npos) {
    const std::optional<int64_t> value = to_int64(item);
    if (!value) return std::nullopt;
    return IntRange{*value, *value};
  }
  const std::optional<int64_t> first = to_int64(trim(item.substr(0, dash)));
  const std::optional<int64_t> last = to_int64(trim(item.substr(dash + 1)));
  if (!first || !last || *first > *last) return std::nullopt;
  return IntRange{*first, *last};
}

}  // namespace

Picos parse_duration(const std::string& key, const std::string& text) {
  return parse_scaled(key, text, kDurationUnits, kDurationSyntax);
}

int64_t parse_bytes(const std::string& key, const std::string& text) {
  return parse_scaled(key, text, kByteUnits, kBytesSyntax);
}

double parse_rate_gbps(const std::string& key, const std::string& text) {
  const std::optional<NumberAndUnit> parts = split_number_and_unit(text);
  if (!parts) throw ConfigError(key, text, kRateSyntax);
  double gbps_per_unit = 1.0;  // a bare number is already in Gb/s
  if (!parts->unit.empty()) {
    const RateUnit* unit = find_unit(kRateUnits, parts->unit);
    if (!unit) throw ConfigError(key, text, kRateSyntax);
    gbps_per_unit = unit->gbps;
  }
  const double gbps = std::strtod(parts->number.c_str(), nullptr) * gbps_per_unit;
  if (!std::isfinite(gbps)) throw ConfigError(key, text, kRateSyntax);
  return gbps;
}

int64_t parse_integer(const std::string& key, const std::string& text) {
  const std::optional<int64_t> value = to_int64(trim(text));
  if (!value) throw ConfigError(key, text, kIntegerSyntax);
  return *value;
}

double parse_real(const std::string& key, const std::string& text) {
  const std::string trimmed = trim(text);
  // The decimal grammar of every number here: no "inf", "nan" or hex floats.
  if (trimmed.empty() || decimal_prefix_length(trimmed) != trimmed.size()) throw ConfigError(key, text, kRealSyntax);
  const double value = std::strtod(trimmed.c_str(), nullptr);
  if (!std::isfinite(value)) throw ConfigError(key, text, kRealSyntax);
  return value;
}

bool parse_bool(const std::string& key, const std::string& text) {
  const std::string word = to_lower(trim(text));
  if (word == "true" || word == "on" || word == "yes" || word == "1") return true;
  if (word == "false" || word == "off" || word == "no" || word == "0") return false;
  throw ConfigError(key, text, kBoolSyntax);
}

std::vector<int64_t> parse_int_list(const std::string& key, const std::string& text) {
  const std::vector<std::string> items =
      parse_or_fail(key, text, kIntListSyntax, [&] { return scan_items(text, ','); });
  std::vector<int64_t> values;
  for (const std::string& item : items) {
    const std::optional<IntRange> range = parse_list_item(item);
    if (!range) throw ConfigError(key, text, kIntListSyntax);
    // Unsigned difference: exact even when the bounds span the whole int64 range.
    const uint64_t extra = static_cast<uint64_t>(range->last) - static_cast<uint64_t>(range->first);
    if (extra >= kMaxIntListLength - values.size()) throw ConfigError(key, text, kIntListTooLong);
    // Stop at `last` before incrementing so that last == INT64_MAX cannot overflow.
    for (int64_t value = range->first;; ++value) {
      values.push_back(value);
      if (value == range->last) break;
    }
  }
  return values;
}

std::string duration_text(Picos ps) { return exact_text(ps, kDurationUnits); }

std::string bytes_text(int64_t bytes) { return exact_text(bytes, kByteUnits); }

}  // namespace fabric::config
