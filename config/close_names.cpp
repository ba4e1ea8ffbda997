#include "config/close_names.h"

#include <algorithm>
#include <utility>

namespace fabric::config {

namespace {

constexpr size_t kLongestSuggestedWord = 200;

}  // namespace

// Two rows of the table.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

size_t max_typo_distance(const std::string& word) {
  const size_t letters = word.size() - std::min(word.find_first_not_of('-'), word.size());
  const size_t slack = word.size() > 16 ? 3 : 2;
  // A suggestion keeps more than half of a short word's letters.
  return std::min(slack, letters > 0 ? (letters - 1) / 2 : 0);
}

std::vector<std::string> close_names(const std::string& word, const std::vector<std::string>& names, size_t most) {
  if (word.size() > kLongestSuggestedWord) return {};
  const size_t limit = max_typo_distance(word);
  std::vector<std::pair<size_t, std::string>> near;
  for (const std::string& name : names) {
    if (name.size() > word.size() + limit || name.size() + limit < word.size()) continue;  // too far already
    const size_t distance = edit_distance(word, name);
    if (distance <= limit) near.emplace_back(distance, name);
  }
  std::sort(near.begin(), near.end());
  near.erase(std::unique(near.begin(), near.end()), near.end());
  std::vector<std::string> chosen;
  for (const auto& [distance, name] : near) {
    if (chosen.size() == most) break;
    if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) chosen.push_back(name);
  }
  return chosen;
}

std::string did_you_mean(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) return "";
  std::string text = " -- did you mean ";
  for (size_t i = 0; i < suggestions.size(); ++i) {
    if (i > 0) text += i + 1 == suggestions.size() ? " or " : ", ";
    text += "'" + suggestions[i] + "'";
  }
  return text + "?";
}

}  // namespace fabric::config
