// The InfiniBand fat tree of E13 as plain C++: IBFT(m, n)'s counts and
// connections, the addressing and forwarding definitions on the worked
// examples of platforms.md for IBFT(4, 3), all-pairs routing on shortest
// up-down paths, the cyclic and OpenSM multicast trees (OpenSM's root by
// both tie-breaks), and the tree checker's refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "model/ibft/fcfs_queue.h"
#include "model/ibft/ibft_topology.h"
#include "model/ibft/subnet_manager.h"
#include "model/ibft/tree_checker.h"

namespace fabric {
namespace {

constexpr int kMlid = 0xC000;  // a group's multicast LID, as the platform numbers them

int node(const IbftTopology& t, const std::string& digits) {
  Digits d;
  for (char c : digits) d.push_back(c - '0');
  return t.pid(d);
}

int sw(const IbftTopology& t, const std::string& w, int level) {
  Digits d;
  for (char c : w) d.push_back(c - '0');
  return t.switch_index(d, level);
}

// A random source and a group of `size` other nodes.
std::pair<int, std::vector<int>> random_group(const IbftTopology& t, int size, std::mt19937_64& rng) {
  std::vector<int> others(t.nodes());
  for (int i = 0; i < t.nodes(); ++i) others[i] = i;
  const int source = static_cast<int>(rng() % t.nodes());
  others.erase(others.begin() + source);
  std::shuffle(others.begin(), others.end(), rng);
  return {source, std::vector<int>(others.begin(), others.begin() + size)};
}

TEST(IbftTopology, CountsForSeveralShapes) {
  struct Shape {
    int m, n, nodes, switches, links;
  };
  // nodes 2 (m/2)^n, switches (2n - 1)(m/2)^(n-1); links: each node one,
  // each non-top switch m/2 up.
  for (const Shape s : {Shape{8, 3, 128, 80, 384}, Shape{4, 3, 16, 20, 48}, Shape{4, 1, 4, 1, 4},
                        Shape{8, 2, 32, 12, 64}, Shape{2, 3, 2, 5, 6}, Shape{6, 2, 18, 9, 36}}) {
    const IbftTopology t(s.m, s.n);
    EXPECT_EQ(t.nodes(), s.nodes) << s.m << "," << s.n;
    EXPECT_EQ(t.switches(), s.switches) << s.m << "," << s.n;
    EXPECT_EQ(t.links(), s.links) << s.m << "," << s.n;
  }
  const IbftTopology t(8, 3);
  EXPECT_EQ(t.switches_at(0), 16);
  EXPECT_EQ(t.switches_at(1), 32);
  EXPECT_EQ(t.switches_at(2), 32);
  EXPECT_THROW(IbftTopology(7, 3), std::invalid_argument);
  EXPECT_THROW(IbftTopology(8, 0), std::invalid_argument);
}

TEST(IbftTopology, ConnectionRuleAndEveryPortUsedOnce) {
  for (const auto& [m, n] : {std::pair{4, 3}, std::pair{8, 3}, std::pair{6, 2}}) {
    const IbftTopology t(m, n);
    for (int s = 0; s < t.switches(); ++s) {
      for (int k = 1; k <= m; ++k) {
        const IbftTopology::Peer& p = t.peer(s, k);
        ASSERT_NE(p.kind, IbftTopology::Peer::Kind::none) << t.switch_name(s) << " port " << k;
        if (p.kind != IbftTopology::Peer::Kind::sw) continue;
        const IbftTopology::Peer& back = t.peer(p.index, p.port);  // links are symmetric
        EXPECT_EQ(back.index, s);
        EXPECT_EQ(back.port, k);
        const int l = std::min(t.level(s), t.level(p.index));
        EXPECT_EQ(std::abs(t.level(s) - t.level(p.index)), 1);
        const int upper = t.level(s) == l ? s : p.index, lower = upper == s ? p.index : s;
        const int k_upper = upper == s ? k : p.port, k_lower = upper == s ? p.port : k;
        // Agree in every digit but digit l; k = w'_l + 1, k' = w_l + m/2 + 1.
        for (int i = 0; i < n - 1; ++i)
          if (i != l) {
            EXPECT_EQ(t.label(upper)[i], t.label(lower)[i]);
          }
        EXPECT_EQ(k_upper, t.label(lower)[l] + 1);
        EXPECT_EQ(k_lower, t.label(upper)[l] + m / 2 + 1);
      }
    }
  }
  const IbftTopology t(4, 3);
  // P(211) on port 2 of SW<21,2>.
  EXPECT_EQ(t.leaf_of(node(t, "211")), sw(t, "21", 2));
  EXPECT_EQ(t.leaf_port_of(node(t, "211")), 2);
  EXPECT_EQ(t.switch_name(sw(t, "21", 2)), "SW<21,2>");
  EXPECT_EQ(t.node_name(node(t, "211")), "P(211)");
}

TEST(SubnetManager, TheWorkedExamplesOfIbft43) {
  const IbftTopology t(4, 3);
  const SubnetManager sm(t);
  // The greatest common prefix of P(200) and P(211) is "2": length 1; their
  // lowest common ancestors SW<20,1> and SW<21,1>; ranks 0 and 3; PIDs 8, 11.
  const int a = node(t, "200"), b = node(t, "211");
  EXPECT_EQ(sm.common_prefix(a, b), 1);
  EXPECT_EQ(a, 8);
  EXPECT_EQ(b, 11);
  EXPECT_EQ(sm.rank(a, 1), 0);
  EXPECT_EQ(sm.rank(b, 1), 3);
  std::vector<std::string> ancestors;
  for (int s = 0; s < t.switches(); ++s)
    if (t.level(s) == 1 && t.label(s)[0] == 2) ancestors.push_back(t.switch_name(s));
  EXPECT_EQ(ancestors, (std::vector<std::string>{"SW<20,1>", "SW<21,1>"}));
  // LMC 2: BaseLID(P(300)) = 49, LIDs 49-52.
  EXPECT_EQ(sm.lmc(), 2);
  EXPECT_EQ(sm.base_lid(node(t, "300")), 49);
  EXPECT_EQ(sm.owner_of(52), node(t, "300"));
  EXPECT_EQ(sm.owner_of(53), node(t, "301"));
  // Sources P(000), P(001), P(010), P(011) to P(200) use LIDs 33, 34, 35, 36.
  const int dst = node(t, "200");
  EXPECT_EQ(sm.cyclic_lid(node(t, "000"), dst), 33);
  EXPECT_EQ(sm.cyclic_lid(node(t, "001"), dst), 34);
  EXPECT_EQ(sm.cyclic_lid(node(t, "010"), dst), 35);
  EXPECT_EQ(sm.cyclic_lid(node(t, "011"), dst), 36);
  // LID 33 from P(000) leaves on ports 3, 3, 3, 1, 1 of SW<00,2>, SW<00,1>,
  // SW<00,0>, SW<20,1>, SW<20,2>.
  std::vector<std::pair<std::string, int>> hops;
  for (const SubnetManager::Hop& h : sm.route(node(t, "000"), 33)) hops.emplace_back(t.switch_name(h.sw), h.port);
  EXPECT_EQ(hops, (std::vector<std::pair<std::string, int>>{
                      {"SW<00,2>", 3}, {"SW<00,1>", 3}, {"SW<00,0>", 3}, {"SW<20,1>", 1}, {"SW<20,2>", 1}}));
  // The multicast entries of P(000) to {P(200), P(201), P(210), P(211)}.
  const std::vector<int> group = {node(t, "200"), node(t, "201"), node(t, "210"), node(t, "211")};
  const SubnetManager::McTable table = sm.cyclic_tree(node(t, "000"), group);
  const auto ports = [&](const std::string& w, int level) {
    std::vector<int> out;
    for (int k = 1; k <= t.m(); ++k)
      if (table[sw(t, w, level)] >> k & 1) out.push_back(k);
    return out;
  };
  EXPECT_EQ(ports("00", 2), (std::vector<int>{3}));
  EXPECT_EQ(ports("00", 1), (std::vector<int>{3}));
  EXPECT_EQ(ports("00", 0), (std::vector<int>{3}));
  EXPECT_EQ(ports("20", 1), (std::vector<int>{1, 2}));
  EXPECT_EQ(ports("20", 2), (std::vector<int>{1, 2}));
  EXPECT_EQ(ports("21", 2), (std::vector<int>{1, 2}));
  int entries = 0;
  for (PortSet e : table) entries += e != 0;
  EXPECT_EQ(entries, 6);
}

// Every source reaches every destination on a shortest up-down path: up to
// the level of their common prefix, then down; and a source leaves a
// level-l switch upward on port p'_l + m/2 + 1 whatever the destination.
TEST(SubnetManager, AllPairsRoutingOnShortestUpDownPaths) {
  for (const auto& [m, n] : {std::pair{4, 3}, std::pair{8, 3}, std::pair{4, 2}, std::pair{6, 3}}) {
    const IbftTopology t(m, n);
    const SubnetManager sm(t);
    for (int s = 0; s < t.nodes(); ++s) {
      const Digits ps = t.node_digits(s);
      for (int d = 0; d < t.nodes(); ++d) {
        if (s == d) continue;
        const int l = sm.common_prefix(s, d);
        const std::vector<SubnetManager::Hop> hops = sm.route(s, sm.cyclic_lid(s, d));
        const int top = std::min(l, n - 1);
        ASSERT_EQ(static_cast<int>(hops.size()), 2 * (n - 1 - top) + 1) << t.node_name(s) << " to " << t.node_name(d);
        bool down = false;
        for (const SubnetManager::Hop& h : hops) {
          const bool going_down = t.is_down_port(h.sw, h.port);
          EXPECT_FALSE(down && !going_down) << "up after down";
          down = down || going_down;
          if (!going_down) {
            EXPECT_EQ(h.port, ps[t.level(h.sw)] + m / 2 + 1);
          }
        }
        const IbftTopology::Peer& last = t.peer(hops.back().sw, hops.back().port);
        EXPECT_EQ(last.kind, IbftTopology::Peer::Kind::node);
        EXPECT_EQ(last.index, d);
      }
    }
  }
}

TEST(TreeChecker, CyclicAndOpenSmTreesPassOnRandomGroups) {
  const IbftTopology t(8, 3);
  const SubnetManager sm(t);
  std::mt19937_64 rng(3);
  for (int size : {1, 13, 51, 90, 127}) {
    for (int trial = 0; trial < 5; ++trial) {
      const auto [source, group] = random_group(t, size, rng);
      const TreeCheck cyclic =
          check_tree(t, sm.cyclic_tree(source, group), source, group, TreeForwarding::every_port, true);
      EXPECT_TRUE(cyclic.ok) << cyclic.problem;
      for (const OpenSmRoot rule : {OpenSmRoot::first, OpenSmRoot::spread}) {
        const TreeCheck opensm = check_tree(t, sm.opensm_tree(group, {source}, rule, kMlid + trial), source, group,
                                            TreeForwarding::all_but_arrival, false);
        EXPECT_TRUE(opensm.ok) << opensm.problem;
      }
    }
  }
}

TEST(SubnetManager, OpenSmRootHasTheSmallestMaximumHopCount) {
  const IbftTopology t(4, 3);
  const SubnetManager sm(t);
  int root = -1;
  // P(200) .. P(211) all lie below SW<20,1> and SW<21,1>: 2 hops to each.
  const std::vector<int> group = {node(t, "200"), node(t, "201"), node(t, "210"), node(t, "211")};
  EXPECT_EQ(sm.opensm_root_candidates(group), (std::vector<int>{sw(t, "20", 1), sw(t, "21", 1)}));
  sm.opensm_tree(group, {}, OpenSmRoot::first, kMlid + 1, &root);
  EXPECT_EQ(t.switch_name(root), "SW<20,1>");  // the first of the two in order, whatever the LID
  // Spread: the group's multicast LID modulo the two tied switches.
  sm.opensm_tree(group, {}, OpenSmRoot::spread, kMlid, &root);
  EXPECT_EQ(t.switch_name(root), "SW<20,1>");
  sm.opensm_tree(group, {}, OpenSmRoot::spread, kMlid + 1, &root);
  EXPECT_EQ(t.switch_name(root), "SW<21,1>");
  // Two leaves far apart: a top switch (level 0 comes first).
  sm.opensm_tree({node(t, "000"), node(t, "311")}, {}, OpenSmRoot::first, kMlid + 3, &root);
  EXPECT_EQ(t.level(root), 0);
  EXPECT_EQ(t.switch_name(root), "SW<00,0>");
  sm.opensm_tree({node(t, "000"), node(t, "311")}, {}, OpenSmRoot::spread, kMlid + 3, &root);
  EXPECT_EQ(t.switch_name(root), "SW<11,0>");  // the 4th of the 4 top switches
  // One root alone is no tie: both rules take it (P(000) and P(001) share SW<00,2>).
  for (const OpenSmRoot rule : {OpenSmRoot::first, OpenSmRoot::spread}) {
    sm.opensm_tree({node(t, "000"), node(t, "001")}, {}, rule, kMlid + 1, &root);
    EXPECT_EQ(t.switch_name(root), "SW<00,2>");
  }
}

// Random groups of 13 on IBFT(8, 3) span several pods, so all 16 top
// switches tie at 3 hops (the E13 case of issue 36). `first` gives every
// group SW<00,0>; `spread` gives consecutive multicast LIDs each top
// switch in turn, each still at the smallest maximum hop count, and the
// tree hangs from that root: of the top switches only the root has an entry.
TEST(SubnetManager, OpenSmRootFirstSharesOneRootAndSpreadSpreadsThemOverTheTied) {
  const IbftTopology t(8, 3);
  const SubnetManager sm(t);
  std::mt19937_64 rng(7);
  const auto max_hops = [&](int s, const std::vector<int>& nodes) {
    const std::vector<int> hops = sm.hops_from_switch(s);
    int worst = 0;
    for (int v : nodes) worst = std::max(worst, sm.hops_to_node(s, v, hops));
    return worst;
  };
  std::vector<int> first_roots, spread_roots;
  for (int g = 0; g < 32; ++g) {
    const auto [source, group] = random_group(t, 13, rng);
    std::vector<int> all = group;
    all.push_back(source);
    int smallest = std::numeric_limits<int>::max();
    for (int s = 0; s < t.switches(); ++s) smallest = std::min(smallest, max_hops(s, all));
    ASSERT_EQ(sm.opensm_root_candidates(all).size(), 16u) << "group " << g << " is in one pod";
    for (const OpenSmRoot rule : {OpenSmRoot::first, OpenSmRoot::spread}) {
      int root = -1;
      const SubnetManager::McTable table = sm.opensm_tree(group, {source}, rule, kMlid + g, &root);
      EXPECT_EQ(t.level(root), 0);
      EXPECT_EQ(max_hops(root, all), smallest) << t.switch_name(root);
      for (int s = 0; s < t.switches_at(0); ++s) EXPECT_EQ(table[static_cast<size_t>(s)] != 0, s == root);
      const TreeCheck check = check_tree(t, table, source, group, TreeForwarding::all_but_arrival, false);
      EXPECT_TRUE(check.ok) << check.problem;
      (rule == OpenSmRoot::first ? first_roots : spread_roots).push_back(root);
    }
  }
  EXPECT_EQ(std::count(first_roots.begin(), first_roots.end(), sw(t, "00", 0)), 32);
  for (int g = 0; g < 32; ++g) EXPECT_EQ(spread_roots[static_cast<size_t>(g)], (kMlid + g) % 16) << g;
  std::sort(spread_roots.begin(), spread_roots.end());
  EXPECT_EQ(std::unique(spread_roots.begin(), spread_roots.end()) - spread_roots.begin(), 16);
}

TEST(TreeChecker, RefusesACopyMadeOnTheWayUpAndAMissedOrDoubleMember) {
  const IbftTopology t(4, 3);
  const SubnetManager sm(t);
  const int source = node(t, "000");
  const std::vector<int> group = {node(t, "001"), node(t, "200")};
  SubnetManager::McTable table = sm.cyclic_tree(source, group);
  ASSERT_TRUE(check_tree(t, table, source, group, TreeForwarding::every_port, true).ok);
  // The packet climbs one path and branches down only: at the source's leaf
  // SW<00,2> it goes down to P(001) (port 2) and up toward P(200) (port 3).
  EXPECT_EQ(table[sw(t, "00", 2)], (PortSet{1} << 2) | (PortSet{1} << 3));
  // A copy made on the way up: SW<00,1> sends up on both its up ports.
  SubnetManager::McTable bad = table;
  bad[sw(t, "00", 1)] |= PortSet{1} << 4;
  const TreeCheck c = check_tree(t, bad, source, group, TreeForwarding::every_port, true);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.problem.find("SW<00,1> makes a copy on the way up"), std::string::npos) << c.problem;
  // Unchecked for that rule, with an entry that carries the second copy
  // down too (SW<10,0> port 3 to SW<20,1>), the two copies meet there.
  bad[sw(t, "10", 0)] |= PortSet{1} << 3;
  const TreeCheck twice = check_tree(t, bad, source, group, TreeForwarding::every_port, false);
  EXPECT_FALSE(twice.ok);
  EXPECT_NE(twice.problem.find("reached twice"), std::string::npos) << twice.problem;
  // A member left out, and a non-member reached.
  SubnetManager::McTable missing = table;
  missing[sw(t, "20", 2)] = 0;
  EXPECT_NE(check_tree(t, missing, source, group, TreeForwarding::every_port, false).problem.find("P(200) receives 0"),
            std::string::npos);
  SubnetManager::McTable extra = table;
  extra[sw(t, "20", 2)] |= PortSet{1} << 2;
  EXPECT_NE(
      check_tree(t, extra, source, group, TreeForwarding::every_port, false).problem.find("P(201) is not a member"),
      std::string::npos);
}

// An output serves the inputs that want it first come, first served by
// their routing time, ties to the lower input port.
TEST(FcfsQueue, FirstComeFirstServedTiesToTheLowerPort) {
  FcfsQueue q;
  q.push(100, 5);
  q.push(200, 7);
  q.push(200, 2);  // routed at the same instant as port 7: goes first
  q.push(200, 4);
  q.push(300, 1);
  std::vector<int> order;
  while (!q.empty()) order.push_back(q.pop());
  EXPECT_EQ(order, (std::vector<int>{5, 2, 4, 7, 1}));
}

}  // namespace
}  // namespace fabric
