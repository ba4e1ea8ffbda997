// check_value: a value against its key's declaration, when it is given. The
// parse is the same one the typed read does later; the range is the
// declared one (param_range.h), named in every message in a notation the
// parser accepts.
#include <algorithm>

#include "config/config.h"
#include "config/param_range.h"

namespace fabric::config {
namespace {

// What the parser reported as the syntax, and the range the key allows.
std::string syntax_and_range(const ParamSpec& spec, const std::string& syntax) {
  const std::string range = full_range(spec);
  if (range.empty()) return syntax;
  return syntax + (spec.type == ParamType::int_list ? "; each element " : "; range ") + range;
}

template <class Parse>
auto parse_numeric(const ParamSpec& spec, const std::string& key, const std::string& value, Parse&& parse) {
  try {
    return parse(key, value);
  } catch (const ConfigError& error) {
    throw ConfigError(key, value, syntax_and_range(spec, error.allowed));
  }
}

template <class Number>
void check_range(const ParamSpec& spec, const std::string& key, const std::string& value, Number number) {
  if (!in_range(spec, number)) throw ConfigError(key, value, declared_range(spec));
}

}  // namespace

ParamSpec text_param(std::string key, std::string default_value, std::string unit, std::string description,
                     TextSyntax syntax) {
  ParamSpec spec;
  spec.key = std::move(key);
  spec.type = ParamType::text;
  spec.default_value = std::move(default_value);
  spec.unit = std::move(unit);
  spec.description = std::move(description);
  spec.syntax = std::move(syntax);
  return spec;
}

void check_value(const ParamSpec& spec, const std::string& key, const std::string& value) {
  if (!spec.derivation.empty() && value == "auto") return;  // derived before the run (param.h)
  switch (spec.type) {
    case ParamType::integer:
      check_range(spec, key, value, parse_numeric(spec, key, value, parse_integer));
      break;
    case ParamType::real:
      check_range(spec, key, value, parse_numeric(spec, key, value, parse_real));
      break;
    case ParamType::boolean:
      parse_bool(key, value);
      break;
    case ParamType::duration:
      check_range(spec, key, value, parse_numeric(spec, key, value, parse_duration));
      break;
    case ParamType::bytes:
      check_range(spec, key, value, parse_numeric(spec, key, value, parse_bytes));
      break;
    case ParamType::rate:
      check_range(spec, key, value, parse_numeric(spec, key, value, parse_rate_gbps));
      break;
    case ParamType::text:
      spec.syntax.check(key, value);
      break;
    case ParamType::choice:
      if (std::find(spec.choices.begin(), spec.choices.end(), value) == spec.choices.end()) {
        throw ConfigError(key, value, choices_text(spec));
      }
      break;
    case ParamType::int_list:
      for (int64_t element : parse_numeric(spec, key, value, parse_int_list)) {
        if (!in_range(spec, element)) throw ConfigError(key, value, "each element " + declared_range(spec));
      }
      break;
  }
}

}  // namespace fabric::config
