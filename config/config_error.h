#pragma once
// The error of bad configuration input: which key, which value, what is
// allowed, and where the value came from when it came from a file. No
// SystemC inside.
#include <stdexcept>
#include <string>

namespace fabric::config {

// A user error in configuration. The message names the key, the value
// (shortened when long, control bytes escaped), what is allowed, and the
// origin ("file.ini:12") when there is one. An error of a line that is not
// an assignment has no key: the value is the line.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string key, std::string value, std::string allowed, std::string origin = "");
  // The same error, located in a file (unchanged when it has an origin already).
  ConfigError located_at(const std::string& origin) const;
  const std::string key, value, allowed, origin;
};

// `text` as it appears in a message: control and non-ASCII bytes as \xNN,
// and beyond `limit` characters the beginning and "... (N characters)".
std::string shorten_for_message(const std::string& text, size_t limit = 80);

}  // namespace fabric::config
