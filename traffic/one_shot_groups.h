#pragma once
// One-shot multicast traffic (platforms.md, E13): a set of sources, each
// sending one message at once to a group of its own, drawn at random from
// the other nodes. Counts are given as a number of nodes or a percentage of
// them ("40%": rounded to the nearest node). Plain C++, seeded.
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"

namespace fabric::traffic {

// "13" or "40%" of `nodes`; throws config::ConfigError naming `key` when
// malformed, below 1 or above `most`.
int parse_node_count(const std::string& key, const std::string& text, int nodes, int most);
config::TextSyntax node_count_syntax();

struct OneShotGroups {
  std::vector<int> sources;              // ascending
  std::vector<std::vector<int>> groups;  // by source, each ascending, never holding its source
};

// `sources` nodes (all of them when sources == nodes), each with `group`
// other nodes (at most nodes - 1).
OneShotGroups draw_one_shot_groups(int nodes, int sources, int group, uint64_t seed);

}  // namespace fabric::traffic
