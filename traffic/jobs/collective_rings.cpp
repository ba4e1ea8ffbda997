// Ring algorithms: every rank sends to its successor r+1 and receives from
// its predecessor r-1, one shard per step; a send waits for the recv of the
// step before at the same rank (the shard it forwards, reduced or not, is
// the one it has just received).
#include "traffic/jobs/collective_builders.h"

namespace fabric::traffic::collective_builders {
namespace {

int modulo(int a, int n) { return ((a % n) + n) % n; }

// Steps [first_step, first_step + n-1) of a ring in which rank r sends shard
// (r + shift - k) mod n at the k-th of them and receives the one r-1 sends.
// `after_recv` carries the recv of the step before (none before the ring's
// first step) from one call to the next.
void ring_steps(const CollectiveSpec& spec, JobSchedule& s, uint32_t first_step, int shift,
                std::vector<int64_t>& after_recv) {
  const int n = spec.ranks;
  for (int k = 0; k < n - 1; ++k) {
    const auto step = first_step + static_cast<uint32_t>(k);
    for (int r = 0; r < n; ++r) {
      const int next = modulo(r + 1, n), previous = modulo(r - 1, n);
      const uint64_t sent = shard_bytes(spec.bytes, n, modulo(r + shift - k, n));
      const uint64_t received = shard_bytes(spec.bytes, n, modulo(previous + shift - k, n));
      std::vector<uint32_t> after;
      int64_t& last_recv = after_recv[static_cast<size_t>(r)];
      if (last_recv >= 0) after.push_back(static_cast<uint32_t>(last_recv));
      add_send(s, r, next, sent, step, step, std::move(after));
      last_recv = add_recv(s, r, previous, received, step, step);
    }
  }
}

}  // namespace

// Reduce-scatter then all-gather, 2(n-1) steps. At reduce-scatter step k
// rank r sends shard (r-k) mod n, so after n-1 steps it holds shard (r+1)
// mod n reduced over all ranks; at all-gather step k it sends shard
// (r+1-k) mod n, starting with that one.
void ring_allreduce(const CollectiveSpec& spec, JobSchedule& s) {
  std::vector<int64_t> after_recv(static_cast<size_t>(spec.ranks), -1);
  ring_steps(spec, s, 0, 0, after_recv);
  ring_steps(spec, s, static_cast<uint32_t>(spec.ranks - 1), 1, after_recv);
}

// n-1 steps; rank r starts with its own shard r and sends shard (r-k) mod n
// at step k: every shard but (r+1) mod n, the last one it receives.
void ring_allgather(const CollectiveSpec& spec, JobSchedule& s) {
  std::vector<int64_t> after_recv(static_cast<size_t>(spec.ranks), -1);
  ring_steps(spec, s, 0, 0, after_recv);
}

// Allreduce's first half, its shards renamed by one: rank r sends shard
// (r-1-k) mod n at step k, so that it ends with shard r reduced, as
// NCCL's reduce-scatter leaves output r at rank r (which matters for sizes
// when S is not a multiple of n).
void ring_reducescatter(const CollectiveSpec& spec, JobSchedule& s) {
  std::vector<int64_t> after_recv(static_cast<size_t>(spec.ranks), -1);
  ring_steps(spec, s, 0, -1, after_recv);
}

}  // namespace fabric::traffic::collective_builders
