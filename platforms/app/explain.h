#pragma once
// What a run's keys resolved to, for a user who asks: --explain KEY (its
// value, where it comes from, its declaration and the checks that read it)
// and --list-params --resolved (every key of the run so), and the
// warnings of the checks that did not hold.
#include <ostream>
#include <string>
#include <vector>

#include "config/config.h"

namespace fabric {

// Prints `key` as `config` resolved it; a renamed key's old name explains
// the new one, with a note on `notes`. Throws ConfigError for a key nobody
// declared (with the closest one) or one this run's platform has not.
void explain_key(const config::Config& config, const config::ParamRegistry& registry, const std::string& key,
                 std::ostream& out, std::ostream& notes);

// Every key of the run (or those `pattern` names, as --list-params PATTERN
// does): key, value, source, origin. Throws ConfigError when the pattern
// names none.
void print_resolved_params(const config::Config& config, std::ostream& out, const std::string& pattern = "");

// "fabricsim: derived: ..." for each derived key this run's physics moved
// away from the spec's value (a what-if changes more than the key it sets).
void print_departures(const config::ResolutionNotes& notes, std::ostream& out);

// "fabricsim: warning: ..." for each check that did not hold.
void print_warnings(const std::vector<config::CheckResult>& warnings, std::ostream& out);

// The keys of a check as one text: "a, b, c".
std::string joined_keys(const config::CheckResult& check);

}  // namespace fabric
