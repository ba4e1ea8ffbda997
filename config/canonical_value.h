#pragma once
// One spelling per value: two texts a key reads as the same value ("1522"
// and "1522B", "16" and "016", "1us" and "1000ns") give the same canonical
// text, so that a sweep can tell values that are one. No SystemC.
#include <optional>
#include <string>

#include "config/config.h"

namespace fabric::config {

// `text` (valid for `spec`: check_value first) as the key reads it. Text
// keys, whose syntax is their own, compare as written.
std::string canonical_value(const ParamSpec& spec, const std::string& key, const std::string& text);

// `text` (valid for `spec`) as a number in the key's unit (ps for a
// duration, B for bytes, Gb/s for a rate; 1 or 0 for a boolean), for
// queries that plot a figure against a key; none for text, choice and list
// keys, or a derived key left "auto".
std::optional<double> numeric_value(const ParamSpec& spec, const std::string& key, const std::string& text);

}  // namespace fabric::config
