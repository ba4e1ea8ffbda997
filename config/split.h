#pragma once
// Text helpers of the configuration: splitting "a.b.c" at '.' or "1,2,3" at
// ',' (every piece, empty ones included), and trimming whitespace.
#include <string>
#include <vector>

namespace fabric::config {

inline std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> pieces;
  size_t begin = 0;
  while (true) {
    const size_t at = text.find(separator, begin);
    pieces.push_back(text.substr(begin, at - begin));
    if (at == std::string::npos) return pieces;
    begin = at + 1;
  }
}

inline std::string trim(const std::string& text) {
  const char* whitespace = " \t\r\n\f\v";
  size_t begin = text.find_first_not_of(whitespace);
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(whitespace);
  return text.substr(begin, end - begin + 1);
}

}  // namespace fabric::config
