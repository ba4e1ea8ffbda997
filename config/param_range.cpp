// Ranges of numeric keys: comparison and printing (see param_range.h).
#include "config/param_range.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "config/text_scanner.h"

namespace fabric::config {
namespace {

constexpr double kTwoTo63 = 9223372036854775808.0;  // exactly 2^63

int64_t lower_bound_of(double min) {
  if (!(min > -kTwoTo63)) return kInt64Min;  // also -inf
  if (min >= kTwoTo63) return kInt64Max;
  return static_cast<int64_t>(std::ceil(min));
}

int64_t upper_bound_of(double max) {
  if (!(max < kTwoTo63)) return kInt64Max;  // also +inf
  if (max <= -kTwoTo63) return kInt64Min;
  return static_cast<int64_t>(std::floor(max));
}

// min and max are kept in the parsed unit, whatever unit the spec displays;
// the parsers of these types accept that unit after a number.
std::string parsed_unit(ParamType type) {
  switch (type) {
    case ParamType::duration:
      return "ps";
    case ParamType::bytes:
      return "B";
    case ParamType::rate:
      return "Gb/s";
    default:
      return "";
  }
}

// A unit the parser takes after a number ("10 ps") or, for integers and
// reals, the spec's unit as a note that is no part of the bound ("10 (MHz)").
std::string with_unit(const ParamSpec& spec, const std::string& range) {
  if (range.empty()) return range;
  const std::string unit = parsed_unit(spec.type);
  if (!unit.empty()) return range + " " + unit;
  return spec.unit.empty() ? range : range + " (" + spec.unit + ")";
}

std::string format_bound(const ParamSpec& spec, double bound, bool is_min) {
  if (!is_integer_valued(spec.type)) return format_real(bound);
  return std::to_string(is_min ? lower_bound_of(bound) : upper_bound_of(bound));
}

std::string range_text(const ParamSpec& spec, bool has_min, bool has_max) {
  const std::string min = format_bound(spec, spec.min, true), max = format_bound(spec, spec.max, false);
  if (has_min && has_max) return min + " .. " + max;
  if (has_min) return ">= " + min;
  if (has_max) return "<= " + max;
  return "";
}

}  // namespace

bool is_numeric(ParamType type) {
  switch (type) {
    case ParamType::integer:
    case ParamType::real:
    case ParamType::duration:
    case ParamType::bytes:
    case ParamType::rate:
    case ParamType::int_list:
      return true;
    default:
      return false;
  }
}

bool is_integer_valued(ParamType type) {
  return type == ParamType::integer || type == ParamType::duration || type == ParamType::bytes ||
         type == ParamType::int_list;
}

IntegerBounds integer_bounds(const ParamSpec& spec) { return {lower_bound_of(spec.min), upper_bound_of(spec.max)}; }

bool in_range(const ParamSpec& spec, int64_t value) {
  const IntegerBounds bounds = integer_bounds(spec);
  return value >= bounds.min && value <= bounds.max;
}

bool in_range(const ParamSpec& spec, double value) { return value >= spec.min && value <= spec.max; }

bool is_bounded(const ParamSpec& spec) { return std::isfinite(spec.min) || std::isfinite(spec.max); }

std::string declared_range(const ParamSpec& spec) {
  return with_unit(spec, range_text(spec, std::isfinite(spec.min), std::isfinite(spec.max)));
}

std::string full_range(const ParamSpec& spec) {
  if (!is_integer_valued(spec.type)) return declared_range(spec);
  return with_unit(spec, range_text(spec, true, true));
}

std::string choices_text(const ParamSpec& spec) {
  std::string text = "one of: ";
  for (size_t i = 0; i < spec.choices.size(); ++i) text += (i ? ", " : "") + spec.choices[i];
  return text;
}

std::string format_real(double value) {
  char text[64];
  if (std::fabs(value) < 1e15 && value == std::floor(value)) {
    std::snprintf(text, sizeof text, "%.0f", value);  // "10000", not "1e+04"
    return text;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;  // 17 digits always round-trip
  }
  return text;
}

}  // namespace fabric::config
