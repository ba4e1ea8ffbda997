#include "traffic/one_shot_groups.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "traffic/random.h"

namespace fabric::traffic {

namespace {

// The first `k` of `pool` after a partial Fisher-Yates shuffle, sorted.
std::vector<int> draw(std::vector<int> pool, int k, std::mt19937_64& rng) {
  for (int i = 0; i < k; ++i) {
    const size_t j = static_cast<size_t>(i) + uniform_below(rng, pool.size() - static_cast<size_t>(i));
    std::swap(pool[static_cast<size_t>(i)], pool[j]);
  }
  pool.resize(static_cast<size_t>(k));
  std::sort(pool.begin(), pool.end());
  return pool;
}

}  // namespace

int parse_node_count(const std::string& key, const std::string& text, int nodes, int most) {
  const std::string allowed = "a number of nodes 1 .. " + std::to_string(most) + ", or a percentage of the " +
                              std::to_string(nodes) + " nodes such as 40%";
  if (text.empty()) throw config::ConfigError(key, text, allowed);
  int count = 0;
  if (text.back() == '%') {
    double percent = 0;
    try {  // the error names the whole value, never its number alone
      percent = config::parse_real(key, text.substr(0, text.size() - 1));
    } catch (const config::ConfigError&) {
      throw config::ConfigError(key, text, allowed);
    }
    if (!(percent > 0 && percent <= 100)) throw config::ConfigError(key, text, allowed);
    count = static_cast<int>(std::floor(percent / 100.0 * nodes + 0.5));
  } else {
    const int64_t n = config::parse_integer(key, text);
    if (n < 1 || n > most) throw config::ConfigError(key, text, allowed);
    count = static_cast<int>(n);
  }
  return std::clamp(count, 1, most);
}

config::TextSyntax node_count_syntax() {
  // Checked where given against the largest tree; against the run's own
  // node count when it is read.
  constexpr int kLargest = 0xBFFF;
  static const char* const allowed = "a number of nodes, or a percentage of them such as 40%";
  return {allowed, [](const std::string& key, const std::string& text) {
            try {
              static_cast<void>(parse_node_count(key, text, kLargest, kLargest));
            } catch (const config::ConfigError&) {
              throw config::ConfigError(key, text, allowed);  // the run's own node count is not known here
            }
          }};
}

OneShotGroups draw_one_shot_groups(int nodes, int sources, int group, uint64_t seed) {
  std::mt19937_64 rng(mix_seed(seed, 0x67726f757073ULL));
  std::vector<int> all(static_cast<size_t>(nodes));
  std::iota(all.begin(), all.end(), 0);
  OneShotGroups g;
  g.sources = sources >= nodes ? all : draw(all, sources, rng);
  for (int s : g.sources) {
    std::vector<int> others;
    for (int p = 0; p < nodes; ++p)
      if (p != s) others.push_back(p);
    const int k = std::min(group, nodes - 1);
    g.groups.push_back(k == nodes - 1 ? others : draw(others, k, rng));
  }
  return g;
}

}  // namespace fabric::traffic
