// Tree algorithms: NCCL's double binary tree allreduce and MPICH's binomial
// broadcast, both pipelined in chunks. Chunks depend on each other only
// through data; the NIC serialises them.
#include <algorithm>

#include "traffic/jobs/collective_builders.h"
#include "traffic/jobs/tree_shapes.h"

namespace fabric::traffic::collective_builders {
namespace {

uint64_t chunk_count(uint64_t total, uint64_t chunk_bytes) {
  if (total == 0 || chunk_bytes == 0) return 1;
  return (total + chunk_bytes - 1) / chunk_bytes;
}

// The position of a power of two: its round in a binomial broadcast of `rounds`
// rounds, where the mask 2^(rounds-1) goes first.
uint32_t round_of_mask(int mask, int rounds) {
  int bit = 0;
  while ((1 << bit) < mask) ++bit;
  return static_cast<uint32_t>(rounds - 1 - bit);
}

}  // namespace

uint64_t double_binary_tree_ops(const CollectiveSpec& spec) {
  // Per tree and chunk, each of the n-1 edges carries a message up and one
  // down, each a send and a recv.
  const auto edges = static_cast<uint64_t>(spec.ranks - 1);
  return 4 * edges *
         (chunk_count(shard_bytes(spec.bytes, 2, 0), spec.chunk_bytes) +
          chunk_count(shard_bytes(spec.bytes, 2, 1), spec.chunk_bytes));
}

uint64_t binomial_broadcast_ops(const CollectiveSpec& spec) {
  return 2 * static_cast<uint64_t>(spec.ranks - 1) * chunk_count(spec.bytes, spec.chunk_bytes);
}

// Tree t carries half t of the buffer (shard t of 2), in chunks. Chunk c's
// reduce is step 2c, its broadcast step 2c+1; a message's tag is 2 * step +
// t. Per chunk, a rank receives the chunk from each child, then sends it
// (reduced) to its parent; the root, once it has all its children's,
// sends it down; every other rank receives it from its parent and forwards
// it to its children.
void double_binary_tree_allreduce(const CollectiveSpec& spec, JobSchedule& s) {
  const std::array<RankTree, 2> trees = nccl_double_binary_tree(spec.ranks);
  const std::array<std::vector<uint64_t>, 2> chunks{chunks_of(shard_bytes(spec.bytes, 2, 0), spec.chunk_bytes),
                                                    chunks_of(shard_bytes(spec.bytes, 2, 1), spec.chunk_bytes)};
  const size_t most_chunks = std::max(chunks[0].size(), chunks[1].size());
  for (size_t c = 0; c < most_chunks; ++c) {
    for (uint32_t t = 0; t < 2; ++t) {
      if (c >= chunks[t].size()) continue;
      const uint64_t bytes = chunks[t][c];
      const auto reduce_step = static_cast<uint32_t>(2 * c), broadcast_step = reduce_step + 1;
      const uint32_t reduce_tag = 2 * reduce_step + t, broadcast_tag = 2 * broadcast_step + t;
      const RankTree& tree = trees[t];
      for (int r = 0; r < spec.ranks; ++r) {
        const std::vector<int>& children = tree.children[static_cast<size_t>(r)];
        const int parent = tree.parent[static_cast<size_t>(r)];
        std::vector<uint32_t> reduced;
        for (int child : children) reduced.push_back(add_recv(s, r, child, bytes, reduce_step, reduce_tag));
        std::vector<uint32_t> result = reduced;  // the root has the result once it has reduced
        if (parent >= 0) {
          add_send(s, r, parent, bytes, reduce_step, reduce_tag, reduced);
          result = {add_recv(s, r, parent, bytes, broadcast_step, broadcast_tag)};
        }
        for (int child : children) add_send(s, r, child, bytes, broadcast_step, broadcast_tag, result);
      }
    }
  }
}

// MPICH's binomial tree relative to the root, each chunk down it on its own:
// chunk c's message of round k (0: the root's farthest subtree) is step
// c * rounds + k. A rank forwards chunk c to its children, farthest first,
// once it has received chunk c.
void binomial_broadcast(const CollectiveSpec& spec, JobSchedule& s) {
  const int n = spec.ranks, rounds = binomial_rounds(n);
  const RankTree tree = binomial_tree(n, spec.root);
  const auto relative = [&](int rank) { return (rank - spec.root + n) % n; };
  const std::vector<uint64_t> chunks = chunks_of(spec.bytes, spec.chunk_bytes);
  for (size_t c = 0; c < chunks.size(); ++c) {
    const auto first_step = static_cast<uint32_t>(c) * static_cast<uint32_t>(rounds);
    for (int r = 0; r < n; ++r) {
      std::vector<uint32_t> received;
      const int parent = tree.parent[static_cast<size_t>(r)];
      if (parent >= 0) {
        const uint32_t step = first_step + round_of_mask(relative(r) - relative(parent), rounds);
        received.push_back(add_recv(s, r, parent, chunks[c], step, step));
      }
      for (int child : tree.children[static_cast<size_t>(r)]) {
        const uint32_t step = first_step + round_of_mask(relative(child) - relative(r), rounds);
        add_send(s, r, child, chunks[c], step, step, received);
      }
    }
  }
}

}  // namespace fabric::traffic::collective_builders
