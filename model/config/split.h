#pragma once
// Splits "a.b.c" at '.' or "1,2,3" at ',': every piece, empty ones included.
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

}  // namespace fabric::config
