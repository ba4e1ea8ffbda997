#pragma once
// The trees collectives run over: NCCL's double binary tree (allreduce
// "tree") and MPICH's binomial tree (broadcast "binomial"). Shapes only;
// collective_trees.cpp turns them into schedules. Plain C++.
#include <array>
#include <vector>

namespace fabric::traffic {

struct RankTree {
  int root = -1;
  std::vector<int> parent;                 // by rank; -1 at the root
  std::vector<std::vector<int>> children;  // by rank, in the order the rank sends to them
};

// NCCL's binary tree over ranks 0..n-1 rooted at 0 (ncclGetBtree, NVIDIA/nccl
// src/graph/trees.cc): even ranks are the interior nodes, odd ranks the
// leaves; the root has one child, the largest power of two below n. Children
// in NCCL's order (down0, the smaller, first).
RankTree nccl_binary_tree(int ranks);

// NCCL's double binary tree (ncclGetDtree): tree 0 as above, tree 1 the
// mirror of it (rank r at n-1-r) when n is even, or it shifted by one (rank r
// at r+1 mod n) when n is odd. The property that makes it fast: with n even
// every rank is an interior node in exactly one tree (a leaf in the other),
// so each rank sends and receives about as much in both trees together as in
// one; with n odd (n >= 3) the same holds for every rank but rank 0, which
// is interior in both (tree 0's root, and in tree 1 the shift of rank n-1,
// an even rank).
std::array<RankTree, 2> nccl_double_binary_tree(int ranks);

// MPICH's binomial tree relative to `root` (MPIR_Bcast_intra_binomial): the
// rank at relative position v receives from v minus its lowest set bit, and
// sends to v + mask for the masks below that bit, largest (the farthest
// subtree) first.
RankTree binomial_tree(int ranks, int root);

// ceil(log2 n): the rounds of a binomial broadcast over n ranks.
int binomial_rounds(int ranks);

}  // namespace fabric::traffic
