// Replication trees: the generic builder on random destination sets, the
// reach formula D(n), and the checks of trees given in configuration.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "model/multicast/replication_tree.h"
#include "model/multicast/tree_text.h"

namespace fabric {
namespace {

Geometry full_system() { return Geometry{}; }  // 128 leaves x 5 ports, surrogates 640..767

// An independent walk of a tree on the full system (5 ports per leaf,
// surrogates from 640): how often each user port and each leaf is reached,
// the largest fanout and the deepest surrogate level.
struct Walk {
  std::map<uint32_t, int> port_hits, leaf_entries;
  size_t max_fanout = 0;
  int max_level = 0;
};

Walk walk(const ReplicationTree& t) {
  Walk w;
  auto leaf = [&](uint32_t p) { return p >= 640 ? p - 640 : p / 5; };
  std::vector<std::pair<uint32_t, int>> stack{{raw(t.source), 0}};
  while (!stack.empty()) {
    const auto [port, level] = stack.back();
    stack.pop_back();
    w.max_level = std::max(w.max_level, level);
    const auto it = t.fanout.find(port);
    if (it == t.fanout.end()) continue;
    w.max_fanout = std::max(w.max_fanout, it->second.size());
    for (PortId target : it->second) {
      if (leaf(raw(target)) != leaf(port)) ++w.leaf_entries[leaf(raw(target))];
      if (raw(target) >= 640) {
        stack.push_back({raw(target), level + 1});
      } else {
        ++w.port_hits[raw(target)];
      }
    }
  }
  return w;
}

TEST(ReplicationTree, ReachThroughNLevelsMatchesTheFormula) {
  // D(n) = 4 + 4 * 5 * (1 + 3 + ... + 3^(n-1))
  const uint64_t expected[] = {4, 24, 84, 264, 804};
  for (int n = 0; n <= 4; ++n) EXPECT_EQ(tree_reach(n), expected[n]) << "n = " << n;
}

TEST(ReplicationTree, BroadcastToAll640PortsFitsInFourLevels) {
  const Geometry g = full_system();
  std::vector<PortId> all;
  for (uint32_t p = 1; p < 640; ++p) all.push_back(PortId(p));
  const ReplicationTree t = build_generic_tree(PortId(0), all, g);
  const Walk w = walk(t);
  EXPECT_EQ(w.port_hits.size(), 639u);
  EXPECT_LE(w.max_level, 4);
  EXPECT_EQ(w.max_fanout, 8u);
  EXPECT_EQ(w.leaf_entries.size(), 127u);
  TreeLimits three;
  three.max_levels = 3;
  EXPECT_THROW(build_generic_tree(PortId(0), all, g, three), TreeError) << "D(3) = 264 < 639";
}

TEST(ReplicationTree, EveryRandomGroupIsReachedOnceWithinTheLimits) {
  const Geometry g = full_system();
  std::mt19937_64 rng(42);
  std::vector<uint32_t> ports(640);
  std::iota(ports.begin(), ports.end(), 0);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t size = 1 + rng() % 639;
    std::shuffle(ports.begin(), ports.end(), rng);
    const PortId source = PortId(ports[0]);
    std::vector<PortId> group;
    for (size_t i = 1; i <= size; ++i) group.push_back(PortId(ports[i]));
    SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(size) + " ports from port " +
                 std::to_string(raw(source)));
    const ReplicationTree t = build_generic_tree(source, group, g);
    Walk w = walk(t);
    ASSERT_EQ(w.port_hits.size(), group.size());
    for (PortId d : group) ASSERT_EQ(w.port_hits[raw(d)], 1) << "port " << raw(d);
    for (const auto& [leaf, entries] : w.leaf_entries) ASSERT_EQ(entries, 1) << "leaf " << leaf;
    ASSERT_LE(w.max_fanout, 8u);
    ASSERT_LE(w.max_level, 4);
    ASSERT_EQ(w.leaf_entries.count(raw(g.leaf_of(source))), 0u) << "the source's own leaf is never re-entered";
  }
}

// E9's groups: 20 of the leaves 8..47, all 5 ports each, from port 0, with 5
// first-level surrogates. In leaf id order every group's first level is its
// 5 lowest leaves; spread shares that duty out, and a group's tree does not
// depend on the order its ports are listed in.
TEST(ReplicationTree, LeafOrderSpreadSharesOutTheFirstLevelOfEqualLeaves) {
  const Geometry g = full_system();
  std::mt19937 rng(7);
  std::vector<uint32_t> pool(40);
  std::iota(pool.begin(), pool.end(), 8);
  std::map<uint32_t, int> first_level_id, first_level_spread;
  for (int group = 0; group < 60; ++group) {
    std::shuffle(pool.begin(), pool.end(), rng);
    std::vector<uint32_t> leaves(pool.begin(), pool.begin() + 20);
    std::vector<PortId> ports;
    for (uint32_t leaf : leaves)
      for (uint32_t k = 0; k < 5; ++k) ports.push_back(PortId(leaf * 5 + k));
    TreeLimits limits;
    limits.max_source_fanout = 5;
    limits.max_levels = 2;
    const ReplicationTree by_id = build_generic_tree(PortId(0), ports, g, limits);
    std::sort(leaves.begin(), leaves.end());
    std::vector<PortId> lowest;
    for (int i = 0; i < 5; ++i) lowest.push_back(g.surrogate_port(LeafId(leaves[i])));
    EXPECT_EQ(by_id.fanout.at(0), lowest) << "group " << group;
    limits.leaf_order = LeafOrder::spread;
    const ReplicationTree spread = build_generic_tree(PortId(0), ports, g, limits);
    std::reverse(ports.begin(), ports.end());
    const ReplicationTree reversed = build_generic_tree(PortId(0), ports, g, limits);
    EXPECT_EQ(reversed.level, spread.level) << "group " << group;
    EXPECT_EQ(reversed.fanout.at(0), spread.fanout.at(0)) << "group " << group;
    const Walk w = walk(spread);
    ASSERT_EQ(w.port_hits.size(), 100u);
    ASSERT_LE(w.max_level, 2);
    for (PortId s : by_id.fanout.at(0)) ++first_level_id[raw(s)];
    for (PortId s : spread.fanout.at(0)) ++first_level_spread[raw(s)];
  }
  auto busiest = [](const std::map<uint32_t, int>& m) {
    int most = 0;
    for (const auto& [port, n] : m) most = std::max(most, n);
    return most;
  };
  // 300 first-level places over 40 leaves: 7.5 a leaf on average.
  EXPECT_LE(first_level_id.size(), 20u);
  EXPECT_GE(busiest(first_level_id), 20);
  EXPECT_EQ(first_level_spread.size(), 40u);
  EXPECT_LE(busiest(first_level_spread), 16);
}

TEST(ReplicationTree, AffinityBroadcastGoesThroughRackTripletCieAndEgressSwitchSurrogates) {
  const Geometry g = full_system();
  std::vector<PortId> all;
  for (uint32_t p = 0; p < 640; ++p)
    if (p != 133) all.push_back(PortId(p));
  const ReplicationTree t = build_affinity_tree(PortId(133), all, g);  // port 133: leaf 26, rack 0
  Walk w = walk(t);
  EXPECT_EQ(w.port_hits.size(), 639u);
  for (const auto& [port, hits] : w.port_hits) ASSERT_EQ(hits, 1) << "port " << port;
  for (const auto& [leaf, entries] : w.leaf_entries) ASSERT_EQ(entries, 1) << "leaf " << leaf;
  EXPECT_EQ(w.max_level, 4);
  EXPECT_LE(w.max_fanout, 8u);
  std::map<int, int> per_level;
  for (const auto& [port, level] : t.level) ++per_level[level];
  EXPECT_EQ(per_level[1], 4) << "one rack surrogate per rack";
  EXPECT_EQ(per_level[2], 12) << "three triplets of CIEs per rack";
  // The source feeds one rack surrogate in each of the 4 racks.
  std::set<uint32_t> racks;
  for (const PortId s : t.fanout.at(133)) {
    if (raw(s) >= 640) racks.insert((raw(s) - 640) / 32);
  }
  EXPECT_EQ(racks, (std::set<uint32_t>{0, 1, 2, 3}));
}

TEST(ReplicationTree, AffinityTreesOfRandomGroupsAreLegal) {
  const Geometry g = full_system();
  std::mt19937_64 rng(9);
  std::vector<uint32_t> ports(640);
  std::iota(ports.begin(), ports.end(), 0);
  for (int trial = 0; trial < 100; ++trial) {
    std::shuffle(ports.begin(), ports.end(), rng);
    const size_t size = 1 + rng() % 639;
    std::vector<PortId> group;
    for (size_t i = 1; i <= size; ++i) group.push_back(PortId(ports[i]));
    const ReplicationTree t = build_affinity_tree(PortId(ports[0]), group, g);
    Walk w = walk(t);
    ASSERT_EQ(w.port_hits.size(), group.size()) << "trial " << trial;
    for (const auto& [leaf, entries] : w.leaf_entries) ASSERT_EQ(entries, 1) << "trial " << trial;
    ASSERT_LE(w.max_fanout, 8u);
    ASSERT_LE(w.max_level, 4);
  }
}

TEST(ReplicationTree, ExplicitTreeFromText) {
  const Geometry g = full_system();
  const ReplicationTree t = explicit_tree(PortId(0), parse_tree_fanout("tree", "0:1,641;641:7,642;642:11"),
                                          {PortId(1), PortId(7), PortId(11)}, g);
  EXPECT_EQ(t.level.at(641), 1);
  EXPECT_EQ(t.level.at(642), 2);
  EXPECT_THROW(explicit_tree(PortId(0), parse_tree_fanout("tree", "0:1,2"), {PortId(1)}, g), TreeError);
}

TEST(ReplicationTree, ASingleRemoteDestinationGetsADirectCopy) {
  const Geometry g = full_system();
  const ReplicationTree t = build_generic_tree(PortId(0), {PortId(1), PortId(7), PortId(12), PortId(13)}, g);
  const std::vector<PortId>& root = t.fanout.at(0);
  EXPECT_NE(std::find(root.begin(), root.end(), PortId(7)), root.end()) << "leaf 1 holds one destination";
  EXPECT_NE(std::find(root.begin(), root.end(), g.surrogate_port(LeafId(2))), root.end()) << "leaf 2 holds two";
  EXPECT_EQ(t.fanout.at(raw(g.surrogate_port(LeafId(2)))), (std::vector<PortId>{PortId(12), PortId(13)}));
}

TEST(ReplicationTree, ExplicitTreesWithMistakesAreRefusedWithTheProblemNamed) {
  const Geometry g = full_system();
  const std::vector<PortId> group{PortId(1), PortId(7), PortId(11)};
  auto message = [&](const ReplicationTree& t) {
    try {
      check_tree(t, group, g);
    } catch (const TreeError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  ReplicationTree good;
  good.source = PortId(0);
  good.fanout[0] = {PortId(1), PortId(641)};
  good.fanout[641] = {PortId(7), PortId(642)};
  good.fanout[642] = {PortId(11)};
  EXPECT_EQ(message(good), "accepted");

  ReplicationTree loop = good;
  loop.fanout[642] = {PortId(11), PortId(641)};
  EXPECT_NE(message(loop).find("loop"), std::string::npos) << message(loop);

  ReplicationTree twice = good;
  twice.fanout[0] = {PortId(1), PortId(641), PortId(7)};  // leaf 1 entered by its surrogate and by a copy to 7
  twice.fanout[641] = {PortId(642)};
  EXPECT_NE(message(twice).find("leaf 1 is entered twice"), std::string::npos) << message(twice);

  ReplicationTree wide = good;
  wide.fanout[641] = {PortId(7),   PortId(642), PortId(643), PortId(644), PortId(645),
                      PortId(646), PortId(647), PortId(648), PortId(649)};
  EXPECT_NE(message(wide).find("fanout of 9"), std::string::npos) << message(wide);

  ReplicationTree not_surrogate = good;
  not_surrogate.fanout[0] = {PortId(1), PortId(6)};
  not_surrogate.fanout[6] = {PortId(7), PortId(11)};
  EXPECT_NE(message(not_surrogate).find("port 6 replicates but is not a surrogate"), std::string::npos)
      << message(not_surrogate);

  ReplicationTree deep = good;
  deep.fanout[642] = {PortId(11), PortId(643)};
  deep.fanout[643] = {PortId(644)};
  deep.fanout[644] = {PortId(645)};
  deep.fanout[645] = {PortId(646)};
  EXPECT_NE(message(deep).find("surrogate level 5"), std::string::npos) << message(deep);

  ReplicationTree missing = good;
  missing.fanout[642] = {};
  EXPECT_NE(message(missing).find("port 11 is a destination the tree does not reach"), std::string::npos)
      << message(missing);
}

}  // namespace
}  // namespace fabric
