// Algorithms without a tree or ring: recursive doubling, pairwise and direct
// exchanges, incast, and the multicast ones (one multicast send per sender).
// Also the op helpers every algorithm shares.
#include <algorithm>

#include "traffic/jobs/collective_builders.h"

namespace fabric::traffic::collective_builders {

namespace {
uint32_t add_message_op(JobOpKind kind, JobSchedule& s, int rank, int peer, uint64_t bytes, uint32_t step, uint32_t tag,
                        std::vector<uint32_t> after) {
  JobOp op;
  op.kind = kind;
  op.bytes = bytes;
  op.peer = peer;
  op.step = step;
  op.tag = tag;
  op.after = std::move(after);
  return add_op(s, rank, std::move(op));
}
}  // namespace

uint32_t add_send(JobSchedule& s, int rank, int to, uint64_t bytes, uint32_t step, uint32_t tag,
                  std::vector<uint32_t> after) {
  return add_message_op(JobOpKind::send, s, rank, to, bytes, step, tag, std::move(after));
}

uint32_t add_recv(JobSchedule& s, int rank, int from, uint64_t bytes, uint32_t step, uint32_t tag,
                  std::vector<uint32_t> after) {
  return add_message_op(JobOpKind::recv, s, rank, from, bytes, step, tag, std::move(after));
}

std::vector<uint64_t> chunks_of(uint64_t total, uint64_t chunk_bytes) {
  if (total == 0 || chunk_bytes == 0 || chunk_bytes >= total) return {total};
  std::vector<uint64_t> chunks(total / chunk_bytes, chunk_bytes);
  if (total % chunk_bytes != 0) chunks.push_back(total % chunk_bytes);
  return chunks;
}

namespace {

// A multicast send from `rank` to group `group`, at step 0.
void add_multicast_send(JobSchedule& s, int rank, int group, uint64_t bytes) {
  JobOp op;
  op.kind = JobOpKind::send;
  op.bytes = bytes;
  op.group = group;
  add_op(s, rank, std::move(op));
}

// Every rank but `excluded`, ascending.
std::vector<int32_t> all_ranks_but(int n, int excluded) {
  std::vector<int32_t> group;
  for (int r = 0; r < n; ++r)
    if (r != excluded) group.push_back(r);
  return group;
}

}  // namespace

// log2 n steps (n a power of two): at step k rank r exchanges with r ^ 2^k
// the 2^k shards it holds, those of the aligned block [r & ~(2^k-1), +2^k);
// the send of step k waits for the recv of step k-1, which completed the block.
void recursive_doubling_allgather(const CollectiveSpec& spec, JobSchedule& s) {
  const int n = spec.ranks;
  const auto block_bytes = [&](int first, int count) {
    uint64_t bytes = 0;
    for (int i = first; i < first + count; ++i) bytes += shard_bytes(spec.bytes, n, i);
    return bytes;
  };
  std::vector<int64_t> last_recv(static_cast<size_t>(n), -1);
  uint32_t step = 0;
  for (int distance = 1; distance < n; distance <<= 1, ++step) {
    for (int r = 0; r < n; ++r) {
      const int partner = r ^ distance;
      std::vector<uint32_t> after;
      if (last_recv[static_cast<size_t>(r)] >= 0)
        after.push_back(static_cast<uint32_t>(last_recv[static_cast<size_t>(r)]));
      add_send(s, r, partner, block_bytes(r & ~(distance - 1), distance), step, step, std::move(after));
      last_recv[static_cast<size_t>(r)] =
          add_recv(s, r, partner, block_bytes(partner & ~(distance - 1), distance), step, step);
    }
  }
}

// One step: rank r multicasts its shard r to group r (every other rank) and
// receives every other rank's shard.
void multicast_allgather(const CollectiveSpec& spec, JobSchedule& s) {
  const int n = spec.ranks;
  for (int r = 0; r < n; ++r) {
    s.groups.push_back(all_ranks_but(n, r));
    add_multicast_send(s, r, r, shard_bytes(spec.bytes, n, r));
    for (int from = 0; from < n; ++from)
      if (from != r) add_recv(s, r, from, shard_bytes(spec.bytes, n, from), 0, 0);
  }
}

// Steps k = 1..n-1, numbered k-1: rank r sends its shard for (r+k) mod n
// there and receives its own shard r of (r-k) mod n's buffer; each step's
// ops wait for both ops of the step before (one message in flight each way).
void pairwise_alltoall(const CollectiveSpec& spec, JobSchedule& s) {
  const int n = spec.ranks;
  for (int r = 0; r < n; ++r) {
    std::vector<uint32_t> previous;
    for (int k = 1; k < n; ++k) {
      const auto step = static_cast<uint32_t>(k - 1);
      const int to = (r + k) % n, from = (r - k + n) % n;
      const uint32_t send = add_send(s, r, to, shard_bytes(spec.bytes, n, to), step, step, previous);
      const uint32_t recv = add_recv(s, r, from, shard_bytes(spec.bytes, n, r), step, step, previous);
      previous = {send, recv};
    }
  }
}

// One step: every rank sends all its n-1 shards at once (in the pairwise
// order, so that the NIC serves them as pairwise would) and receives n-1.
void direct_alltoall(const CollectiveSpec& spec, JobSchedule& s) {
  const int n = spec.ranks;
  for (int r = 0; r < n; ++r) {
    for (int k = 1; k < n; ++k) add_send(s, r, (r + k) % n, shard_bytes(spec.bytes, n, (r + k) % n), 0, 0);
    for (int k = 1; k < n; ++k) add_recv(s, r, (r - k + n) % n, shard_bytes(spec.bytes, n, r), 0, 0);
  }
}

// One step: every rank but the root sends `bytes` to the root at once.
void direct_incast(const CollectiveSpec& spec, JobSchedule& s) {
  for (int r = 0; r < spec.ranks; ++r) {
    if (r == spec.root) continue;
    add_send(s, r, spec.root, spec.bytes, 0, 0);
    add_recv(s, spec.root, r, spec.bytes, 0, 0);
  }
}

// One step: every rank sends `bytes` to the rank half the job away,
// (r + n/2) mod n, and receives as much from (r - n/2) mod n: a permutation
// whose pairs are as far apart as the ranks' order puts them (a background
// job; with iterations, a steady load).
void shift_permutation(const CollectiveSpec& spec, JobSchedule& s) {
  const int n = spec.ranks;
  const int shift = n / 2;
  for (int r = 0; r < n; ++r) {
    add_send(s, r, (r + shift) % n, spec.bytes, 0, 0);
    add_recv(s, r, (r - shift + n) % n, spec.bytes, 0, 0);
  }
}

// One step: the root multicasts the buffer to group 0, every other rank.
void multicast_broadcast(const CollectiveSpec& spec, JobSchedule& s) {
  s.groups.push_back(all_ranks_but(spec.ranks, spec.root));
  add_multicast_send(s, spec.root, 0, spec.bytes);
  for (int r = 0; r < spec.ranks; ++r)
    if (r != spec.root) add_recv(s, r, spec.root, spec.bytes, 0, 0);
}

}  // namespace fabric::traffic::collective_builders
