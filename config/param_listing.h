#pragma once
// --list-params: the declared keys for a reader (each key's line of
// columns, its description wrapped under it, no line wider than the
// terminal) or for a program (one tab-separated line per key), all of them or
// those a pattern names. No SystemC.
#include <cstddef>
#include <string>
#include <vector>

#include "config/config.h"

namespace fabric::config {

// Whether --list-params PATTERN lists `spec`: a glob ('*' any text, '?' one
// character, [...] one of a set) matched against the declared key; a
// pattern without those names a key (an instance's: flow.web.src lists
// flow.*.src) or a group of keys (leaf.voq lists leaf.voq.*).
bool lists(const ParamRegistry& registry, const std::string& pattern, const ParamSpec& spec);
// The same for a run's key (--list-params PATTERN --resolved): the glob, the
// key itself or its group; an instance key (leaf[3].cache.entries) also as
// its group's key (leaf.cache.entries).
bool names_key(const std::string& pattern, const std::string& key);

// For a reader: KEY, TYPE, DEFAULT, UNIT and ALLOWED in columns, the
// description wrapped and indented below each key; the keys every platform
// reads first, then each platform's under a heading of its own. Every line
// is at most `width` characters. "" when no key matches.
std::string list_params_text(const ParamRegistry& registry, const std::string& pattern, size_t width);

// For a program: a heading line, then one line per key, the cells
// PLATFORM ("" for the keys every platform reads), KEY, TYPE, DEFAULT, UNIT,
// ALLOWED, DESCRIPTION separated by tabs, in the order above. "" when no key
// matches.
std::string list_params_tsv(const ParamRegistry& registry, const std::string& pattern);

// The error for a pattern that lists no key, with the patterns near it that
// list some.
ConfigError no_key_listed(const ParamRegistry& registry, const std::string& pattern);

// `text` broken at spaces into lines of at most `width` characters (a word
// longer than that is cut).
std::vector<std::string> wrap_words(const std::string& text, size_t width);

}  // namespace fabric::config
