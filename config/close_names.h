#pragma once
// "Did you mean": the names nearest to a mistyped one by edit distance
// (Levenshtein), the one rule behind every suggestion fabricsim makes (keys,
// study ids, options, --list-params patterns). No SystemC.
#include <cstddef>
#include <string>
#include <vector>

namespace fabric::config {

size_t edit_distance(const std::string& a, const std::string& b);

// How far a name may be from `word` and still be its typo: two edits (three
// for a word longer than 16 characters), fewer for a short word, so that
// "-x" suggests nothing rather than "--db".
size_t max_typo_distance(const std::string& word);

// The names of `names` within max_typo_distance(word), nearest first (ties
// in name order), at most `most`; none for a word longer than 200
// characters (no name is near, and each distance costs its length).
std::vector<std::string> close_names(const std::string& word, const std::vector<std::string>& names, size_t most = 3);

// " -- did you mean 'a'?", " -- did you mean 'a' or 'b'?", or "" for none.
std::string did_you_mean(const std::vector<std::string>& suggestions);

}  // namespace fabric::config
