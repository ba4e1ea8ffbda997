#pragma once
// One spelling per value: two texts a key reads as the same value ("1522"
// and "1522B", "16" and "016", "1us" and "1000ns") give the same canonical
// text, so that a sweep can tell values that are one. No SystemC.
#include <string>

#include "model/config/config.h"

namespace fabric::config {

// `text` (valid for `spec`: check_value first) as the key reads it. Text
// keys, whose syntax is their own, compare as written.
std::string canonical_value(const ParamSpec& spec, const std::string& key, const std::string& text);

}  // namespace fabric::config
