#pragma once
// Collective operations as closed-loop job schedules: the sends, recvs and
// dependencies each rank of a job runs for an allreduce, allgather, ... by
// a named algorithm (ring, NCCL's double binary tree, MPICH's binomial
// broadcast, ...). Sizes and bandwidth figures as NCCL-tests define them,
// so that a simulated job's algbw and busbw compare with NCCL-tests' tables.
// Plain C++, no SystemC.
//
// Conventions every algorithm keeps:
//  - Shards: when a size S is cut in n parts, shard i has S/n + (i < S%n)
//    bytes, so that totals are exact; a message may have 0 bytes (it still
//    synchronises).
//  - Steps: JobOp::step is the algorithm's step within one iteration plus
//    i * (steps of one iteration) in iteration i. Chunked algorithms number
//    steps by chunk: the double binary tree 2 * chunk + phase (0 reduce,
//    1 broadcast), the binomial broadcast chunk * rounds + round (round 0:
//    the root's farthest subtree).
//  - Tags: the message's step, counted over iterations (the global step),
//    except the double binary tree's: 2 * global step + tree, because a
//    pair of ranks may be parent and child in both trees.
//  - Iterations: at each rank, the first ops of iteration i + 1 require the
//    last ops of iteration i there (those no other op of it requires), so
//    every op of iteration i: a local barrier, not a global one.
#include <cstdint>
#include <string>
#include <vector>

#include "traffic/jobs/job_schedule.h"

namespace fabric::traffic {

enum class Collective { allreduce, allgather, reducescatter, alltoall, broadcast, incast, permutation };

struct CollectiveSpec {
  Collective collective = Collective::allreduce;
  std::string algorithm = "ring";
  int ranks = 2;
  // NCCL-tests' "size": allreduce each rank's buffer; allgather the total
  // output (shard S/n from each rank); reducescatter the total input (each
  // rank ends with S/n); alltoall each rank's send buffer (S/n to each
  // other rank); broadcast the buffer; incast what each non-root rank sends;
  // permutation what each rank sends to its partner.
  uint64_t bytes = 0;
  int root = 0;              // broadcast, incast: the root rank (0..ranks-1)
  uint64_t chunk_bytes = 0;  // tree and binomial: the pipelining chunk (0: the whole message)
  int iterations = 1;        // the collective this many times back to back
  std::string key_prefix;    // "job.NAME.", for error messages
};

// The schedule of `spec`: ranks() == spec.ranks, one rank without ops when
// ranks == 1. Throws config::ConfigError naming key_prefix + "ranks",
// "root", "iterations", "algorithm" or "chunk_bytes" for values out of
// range, an algorithm the collective does not allow, recursive doubling
// over a number of ranks that is not a power of two, or a schedule of more
// than kMostCollectiveOperations ops.
JobSchedule build_collective(const CollectiveSpec& spec);

// Ops of all ranks and iterations together: a bound that keeps a typo in
// chunk_bytes or iterations from taking the machine's memory (an op is
// about 90 bytes).
constexpr uint64_t kMostCollectiveOperations = uint64_t{1} << 24;

// The algorithms each collective allows (first = default), for the
// configuration key's help and checks.
const std::vector<std::string>& algorithms_of(Collective c);

// "allreduce", ...; collective_named throws config::ConfigError naming
// `key` for an unknown name.
std::string to_string(Collective c);
Collective collective_named(const std::string& name, const std::string& key = "collective");
const std::vector<std::string>& collective_names();

// NCCL-tests' figures: algbw = algorithm_bytes / time, busbw = algbw *
// bus_factor. algorithm_bytes is the size, except incast's: (ranks - 1) *
// bytes, what the root receives. bus_factor: allreduce 2(n-1)/n; allgather,
// reducescatter, alltoall (n-1)/n; broadcast, incast and permutation 1.
uint64_t algorithm_bytes(const CollectiveSpec& spec);
double bus_factor(Collective c, int ranks);

// Shard `index` of `total` bytes cut in `parts`: total/parts + (index < total%parts).
uint64_t shard_bytes(uint64_t total, int parts, int index);

}  // namespace fabric::traffic
