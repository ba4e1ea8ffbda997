// ConfigError's message: the one format every configuration error shares.
#include "config/config_error.h"

#include <cstdio>

namespace fabric::config {
namespace {

std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    }
  }
  return out;
}

std::string format_message(const std::string& key, const std::string& value, const std::string& allowed,
                           const std::string& origin) {
  std::string message = "configuration error: ";
  if (!origin.empty()) message += shorten_for_message(origin, 200) + ": ";
  if (key.empty()) {
    message += "line '" + shorten_for_message(value) + "'";
  } else {
    message += "key '" + shorten_for_message(key) + "' has value '" + shorten_for_message(value) + "'";
  }
  return message + "; allowed: " + allowed;
}

}  // namespace

std::string shorten_for_message(const std::string& text, size_t limit) {
  if (text.size() <= limit) return escaped(text);
  return escaped(text.substr(0, limit)) + "... (" + std::to_string(text.size()) + " characters)";
}

ConfigError::ConfigError(std::string key, std::string value, std::string allowed, std::string origin)
    : std::runtime_error(format_message(key, value, allowed, origin)),
      key(std::move(key)),
      value(std::move(value)),
      allowed(std::move(allowed)),
      origin(std::move(origin)) {}

ConfigError ConfigError::located_at(const std::string& where) const {
  if (!origin.empty()) return *this;
  return ConfigError(key, value, allowed, where);
}

}  // namespace fabric::config
