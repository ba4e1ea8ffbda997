#pragma once
// Reading `fabricsim --list-params` as a reader sees it, for the tests of
// the listing (tests/config/param_listing_test.cpp) and of the command line
// (tests/integration/cli_names_test.cpp).
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fabric::test {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The keys a listing for a reader names: the first word of each line that
// starts at the margin (not a heading).
inline std::set<std::string> listed_keys(const std::string& text) {
  std::set<std::string> keys;
  for (const std::string& line : lines_of(text))
    if (!line.empty() && line[0] != ' ' && line[0] != '#' && line.rfind("KEY", 0) != 0)
      keys.insert(line.substr(0, line.find(' ')));
  return keys;
}

}  // namespace fabric::test
