// The trees behind allreduce "tree" and broadcast "binomial": NCCL's double
// binary tree's shape and property, MPICH's binomial tree, and the
// schedules over them: halves, chunks, data dependencies only.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/traffic/collective_checks.h"
#include "traffic/jobs/collectives.h"
#include "traffic/jobs/tree_shapes.h"

namespace fabric::traffic {
namespace {

// Every rank reached from the root once, parents and children agreeing.
// The ranks a walk down from the root reaches, each once; -1 when one is
// reached twice (a cycle, or a rank with two parents).
int ranks_reached(const RankTree& tree, int n) {
  std::vector<bool> seen(static_cast<size_t>(n), false);
  std::vector<int> to_visit{tree.root};
  int reached = 0;
  while (!to_visit.empty()) {
    const int r = to_visit.back();
    to_visit.pop_back();
    if (seen[static_cast<size_t>(r)]) return -1;
    seen[static_cast<size_t>(r)] = true;
    ++reached;
    for (int child : tree.children[static_cast<size_t>(r)]) to_visit.push_back(child);
  }
  return reached;
}

void expect_a_tree(const RankTree& tree, int n, const std::string& what) {
  int roots = 0;
  for (int r = 0; r < n; ++r) {
    const auto i = static_cast<size_t>(r);
    roots += tree.parent[i] == -1;
    EXPECT_LE(tree.children[i].size(), 2u) << what << " rank " << r;
    for (int child : tree.children[i]) EXPECT_EQ(tree.parent[static_cast<size_t>(child)], r) << what;
    if (tree.parent[i] >= 0) {
      const auto& siblings = tree.children[static_cast<size_t>(tree.parent[i])];
      EXPECT_EQ(std::count(siblings.begin(), siblings.end(), r), 1) << what << " rank " << r;
    }
  }
  EXPECT_EQ(roots, 1) << what;
  ASSERT_GE(tree.root, 0);
  EXPECT_EQ(tree.parent[static_cast<size_t>(tree.root)], -1) << what;
  EXPECT_EQ(ranks_reached(tree, n), n) << what;
}

TEST(CollectiveTrees, DoubleBinaryTreeIsTwoTreesWithNcclsRoots) {
  for (int n = 1; n <= 70; ++n) {
    const std::array<RankTree, 2> trees = nccl_double_binary_tree(n);
    expect_a_tree(trees[0], n, "tree 0 of " + std::to_string(n));
    expect_a_tree(trees[1], n, "tree 1 of " + std::to_string(n));
    EXPECT_EQ(trees[0].root, 0);
    EXPECT_EQ(trees[1].root, n % 2 == 1 && n > 1 ? 1 : n - 1) << "ncclGetDtreeRoots, n=" << n;
  }
}

TEST(CollectiveTrees, EachRankInteriorInOneTreeButRankZeroWhenOdd) {
  for (int n = 2; n <= 70; ++n) {
    const std::array<RankTree, 2> trees = nccl_double_binary_tree(n);
    for (int r = 0; r < n; ++r) {
      const int interior =
          !trees[0].children[static_cast<size_t>(r)].empty() + !trees[1].children[static_cast<size_t>(r)].empty();
      // n even: the mirror swaps odd and even ranks, so leaves and interior
      // nodes. n odd: the shift makes tree 0's interior n-1 (even) rank 0,
      // tree 0's root.
      const int expected = n % 2 == 1 && r == 0 ? 2 : 1;
      EXPECT_EQ(interior, expected) << "n=" << n << " rank " << r;
    }
  }
}

TEST(CollectiveTrees, NcclsDrawings) {
  // trees.cc's drawing of 14 ranks (tree 0) and of 12 (mirror) and 13 (shift).
  const RankTree fourteen = nccl_binary_tree(14);
  EXPECT_EQ(fourteen.children[0], std::vector<int>{8});
  EXPECT_EQ(fourteen.children[8], (std::vector<int>{4, 12}));
  EXPECT_EQ(fourteen.children[12], (std::vector<int>{10, 13}));
  EXPECT_EQ(fourteen.children[10], (std::vector<int>{9, 11}));
  EXPECT_EQ(fourteen.parent[13], 12);
  const RankTree mirrored = nccl_double_binary_tree(12)[1];
  EXPECT_EQ(mirrored.children[11], std::vector<int>{3});
  EXPECT_EQ(mirrored.children[3], (std::vector<int>{7, 1}));
  EXPECT_EQ(mirrored.children[7], (std::vector<int>{9, 5}));
  EXPECT_EQ(mirrored.children[9], (std::vector<int>{10, 8}));
  const RankTree shifted = nccl_double_binary_tree(13)[1];
  EXPECT_EQ(shifted.children[1], std::vector<int>{9});
  EXPECT_EQ(shifted.children[9], (std::vector<int>{5, 0}));
  EXPECT_EQ(shifted.children[0], std::vector<int>{11});
  EXPECT_EQ(shifted.children[11], (std::vector<int>{10, 12}));
}

TEST(CollectiveTrees, BinomialTreeAsMpichBuildsIt) {
  const RankTree eight = binomial_tree(8, 0);
  EXPECT_EQ(eight.children[0], (std::vector<int>{4, 2, 1})) << "the farthest subtree first";
  EXPECT_EQ(eight.children[4], (std::vector<int>{6, 5}));
  EXPECT_EQ(eight.children[6], std::vector<int>{7});
  EXPECT_EQ(eight.parent[3], 2);
  const RankTree five = binomial_tree(5, 3);  // relative v is rank (v + 3) % 5
  EXPECT_EQ(five.children[3], (std::vector<int>{2, 0, 4}));
  EXPECT_EQ(five.children[0], std::vector<int>{1});
  for (int n : {1, 2, 3, 5, 8, 64, 100})
    for (int root : {0, n / 2, n - 1}) {
      const RankTree tree = binomial_tree(n, root);
      EXPECT_EQ(tree.root, root);
      EXPECT_EQ(ranks_reached(tree, n), n) << "n=" << n << " root " << root;
    }
}

CollectiveSpec tree_spec(int n, uint64_t bytes, uint64_t chunk) {
  CollectiveSpec spec;
  spec.algorithm = "tree";
  spec.ranks = n;
  spec.bytes = bytes;
  spec.chunk_bytes = chunk;
  return spec;
}

TEST(CollectiveTrees, TreeAllreduceMovesEachHalfUpAndDownItsTree) {
  for (int n : {2, 3, 5, 8, 64})
    for (uint64_t S : {uint64_t{0}, uint64_t{1}, uint64_t{1001}, (uint64_t{1} << 20) + 7}) {
      const std::array<RankTree, 2> trees = nccl_double_binary_tree(n);
      const JobSchedule s = build_collective(tree_spec(n, S, 0));
      for (int r = 0; r < n; ++r) {
        uint64_t expected = 0;  // up to the parent once, down to each child
        for (int t = 0; t < 2; ++t)
          expected += shard_bytes(S, 2, t) * ((trees[t].parent[static_cast<size_t>(r)] >= 0) +
                                              trees[t].children[static_cast<size_t>(r)].size());
        uint64_t sent = 0, received = 0;
        for (const JobOp& op : s.ranks[static_cast<size_t>(r)].ops)
          (op.kind == JobOpKind::send ? sent : received) += op.bytes;
        EXPECT_EQ(sent, expected) << "n=" << n << " S=" << S << " rank " << r;
        EXPECT_EQ(received, expected) << "n=" << n << " S=" << S << " rank " << r;
      }
    }
}

TEST(CollectiveTrees, ChunksDependOnlyOnTheirOwnData) {
  // 1 MiB + 7 in 64 KiB chunks: halves of 524292 and 524291 B, 9 chunks each.
  const JobSchedule s = build_collective(tree_spec(8, (uint64_t{1} << 20) + 7, 65536));
  EXPECT_EQ(s.steps, 18u) << "2 * chunk + phase";
  EXPECT_TRUE(testing::schedule_problems(s).empty());
  uint64_t last_chunk_bytes = 0;
  for (const RankSchedule& rank : s.ranks)
    for (const JobOp& op : rank.ops) {
      for (uint32_t d : op.after) EXPECT_EQ(rank.ops[d].step / 2, op.step / 2) << "a dependency across chunks";
      EXPECT_EQ(op.tag, 2 * op.step + op.tag % 2) << "2 * step + tree";
      EXPECT_LE(op.bytes, 65536u);
      if (op.step / 2 == 8) last_chunk_bytes = std::max(last_chunk_bytes, op.bytes);
    }
  EXPECT_EQ(last_chunk_bytes, 524292u - 8 * 65536u);
  // Binomial broadcast: chunk c's ops are steps c * rounds .. c * rounds + rounds-1.
  CollectiveSpec broadcast;
  broadcast.collective = Collective::broadcast;
  broadcast.algorithm = "binomial";
  broadcast.ranks = 8;
  broadcast.bytes = 10000;
  broadcast.chunk_bytes = 4096;
  broadcast.root = 5;
  const JobSchedule b = build_collective(broadcast);
  EXPECT_EQ(b.steps, 9u) << "3 chunks of 3 rounds";
  for (const RankSchedule& rank : b.ranks)
    for (const JobOp& op : rank.ops) {
      EXPECT_EQ(op.bytes, op.step / 3 < 2 ? 4096u : 1808u);
      for (uint32_t d : op.after) EXPECT_EQ(rank.ops[d].step / 3, op.step / 3);
    }
  EXPECT_EQ(b.ranks[5].ops.size(), 9u) << "the root sends 3 chunks to 3 children";
  EXPECT_EQ(b.ranks[5].ops[0].peer, 1) << "relative 4 first";
}

}  // namespace
}  // namespace fabric::traffic
