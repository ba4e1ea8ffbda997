#include "config/canonical_value.h"

#include <cstdio>

namespace fabric::config {
namespace {

std::string exact(double number) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", number);
  return text;
}

}  // namespace

std::string canonical_value(const ParamSpec& spec, const std::string& key, const std::string& text) {
  if (!spec.derivation.empty() && text == "auto") return text;
  switch (spec.type) {
    case ParamType::integer:
      return std::to_string(parse_integer(key, text));
    case ParamType::real:
      return exact(parse_real(key, text));
    case ParamType::boolean:
      return parse_bool(key, text) ? "true" : "false";
    case ParamType::duration:
      return std::to_string(parse_duration(key, text)) + "ps";
    case ParamType::bytes:
      return std::to_string(parse_bytes(key, text)) + "B";
    case ParamType::rate:
      return exact(parse_rate_gbps(key, text));
    case ParamType::int_list: {
      std::string s;
      for (const int64_t element : parse_int_list(key, text)) s += (s.empty() ? "" : ",") + std::to_string(element);
      return s;
    }
    case ParamType::text:
    case ParamType::choice:
      return text;
  }
  return text;
}

std::optional<double> numeric_value(const ParamSpec& spec, const std::string& key, const std::string& text) {
  if (!spec.derivation.empty() && text == "auto") return std::nullopt;
  switch (spec.type) {
    case ParamType::integer:
      return static_cast<double>(parse_integer(key, text));
    case ParamType::real:
      return parse_real(key, text);
    case ParamType::boolean:
      return parse_bool(key, text) ? 1.0 : 0.0;
    case ParamType::duration:
      return static_cast<double>(parse_duration(key, text));
    case ParamType::bytes:
      return static_cast<double>(parse_bytes(key, text));
    case ParamType::rate:
      return parse_rate_gbps(key, text);
    case ParamType::int_list:
    case ParamType::text:
    case ParamType::choice:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace fabric::config
