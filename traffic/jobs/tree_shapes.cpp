#include "traffic/jobs/tree_shapes.h"

#include <cstddef>
#include <utility>

namespace fabric::traffic {
namespace {

struct BinaryLinks {
  int up = -1;
  int down0 = -1;
  int down1 = -1;
};

// One rank's links in NCCL's binary tree (ncclGetBtree's arithmetic): the
// lowest set bit of the rank says its level; the parent clears that bit and
// sets the next one (or only clears it when that is out of range); the
// children are rank -/+ half that bit, the second one lowered until in range.
BinaryLinks binary_links(int n, int rank) {
  int bit = 1;
  while (bit < n && (bit & rank) == 0) bit <<= 1;
  BinaryLinks links;
  if (rank == 0) {
    links.down1 = n > 1 ? bit >> 1 : -1;  // bit: the smallest power of two >= n
    return links;
  }
  links.up = (rank ^ bit) | (bit << 1);
  if (links.up >= n) links.up = rank ^ bit;
  int low_bit = bit >> 1;
  if (low_bit == 0) return links;  // odd ranks are leaves
  links.down0 = rank - low_bit;
  while (low_bit > 0 && rank + low_bit >= n) low_bit >>= 1;
  links.down1 = low_bit > 0 ? rank + low_bit : -1;
  return links;
}

RankTree empty_tree(int n) {
  RankTree tree;
  tree.parent.assign(static_cast<size_t>(n), -1);
  tree.children.assign(static_cast<size_t>(n), {});
  return tree;
}

// Tree 0 with every rank r renamed to_rank(r).
template <typename Rename>
RankTree renamed(const RankTree& tree, Rename to_rank) {
  RankTree out = empty_tree(static_cast<int>(tree.parent.size()));
  out.root = to_rank(tree.root);
  for (size_t r = 0; r < tree.parent.size(); ++r) {
    const auto to = static_cast<size_t>(to_rank(static_cast<int>(r)));
    out.parent[to] = tree.parent[r] < 0 ? -1 : to_rank(tree.parent[r]);
    for (int child : tree.children[r]) out.children[to].push_back(to_rank(child));
  }
  return out;
}

}  // namespace

RankTree nccl_binary_tree(int ranks) {
  RankTree tree = empty_tree(ranks);
  if (ranks < 1) return tree;
  tree.root = 0;
  for (int r = 0; r < ranks; ++r) {
    const BinaryLinks links = binary_links(ranks, r);
    tree.parent[static_cast<size_t>(r)] = links.up;
    for (int child : {links.down0, links.down1})
      if (child >= 0) tree.children[static_cast<size_t>(r)].push_back(child);
  }
  return tree;
}

std::array<RankTree, 2> nccl_double_binary_tree(int ranks) {
  RankTree first = nccl_binary_tree(ranks);
  if (ranks < 1) return {first, first};
  RankTree second = ranks % 2 == 0 ? renamed(first, [&](int r) { return ranks - 1 - r; })
                                   : renamed(first, [&](int r) { return (r + 1) % ranks; });
  return {std::move(first), std::move(second)};
}

RankTree binomial_tree(int ranks, int root) {
  RankTree tree = empty_tree(ranks);
  if (ranks < 1) return tree;
  tree.root = root;
  const auto rank_at = [&](int relative) { return (relative + root) % ranks; };
  for (int v = 0; v < ranks; ++v) {
    int mask = 1;
    while (mask < ranks && (v & mask) == 0) mask <<= 1;
    if (v != 0) tree.parent[static_cast<size_t>(rank_at(v))] = rank_at(v - mask);
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (v + mask < ranks) tree.children[static_cast<size_t>(rank_at(v))].push_back(rank_at(v + mask));
  }
  return tree;
}

int binomial_rounds(int ranks) {
  int rounds = 0;
  while ((1 << rounds) < ranks) ++rounds;
  return rounds;
}

}  // namespace fabric::traffic
