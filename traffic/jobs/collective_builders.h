#pragma once
// The algorithms behind build_collective (collectives.h), one function per
// collective and algorithm, each building one iteration of a valid spec
// (ranks >= 2, root in range) into a schedule of spec.ranks empty ranks.
// Internal to traffic/jobs: collectives.cpp checks the spec, chooses the
// function and repeats its iteration.
#include <cstdint>
#include <vector>

#include "traffic/jobs/collectives.h"
#include "traffic/jobs/job_schedule.h"

namespace fabric::traffic::collective_builders {

// A send (unicast) or recv op; tag = step unless the algorithm says else.
uint32_t add_send(JobSchedule& s, int rank, int to, uint64_t bytes, uint32_t step, uint32_t tag,
                  std::vector<uint32_t> after = {});
uint32_t add_recv(JobSchedule& s, int rank, int from, uint64_t bytes, uint32_t step, uint32_t tag,
                  std::vector<uint32_t> after = {});

// Pieces of `total` bytes of at most `chunk_bytes` (0: one piece); one piece
// of 0 bytes when total is 0.
std::vector<uint64_t> chunks_of(uint64_t total, uint64_t chunk_bytes);

// collective_rings.cpp
void ring_allreduce(const CollectiveSpec& spec, JobSchedule& s);
void ring_allgather(const CollectiveSpec& spec, JobSchedule& s);
void ring_reducescatter(const CollectiveSpec& spec, JobSchedule& s);

// collective_exchanges.cpp
void recursive_doubling_allgather(const CollectiveSpec& spec, JobSchedule& s);
void multicast_allgather(const CollectiveSpec& spec, JobSchedule& s);
void pairwise_alltoall(const CollectiveSpec& spec, JobSchedule& s);
void direct_alltoall(const CollectiveSpec& spec, JobSchedule& s);
void direct_incast(const CollectiveSpec& spec, JobSchedule& s);
void shift_permutation(const CollectiveSpec& spec, JobSchedule& s);
void multicast_broadcast(const CollectiveSpec& spec, JobSchedule& s);

// collective_trees.cpp
void double_binary_tree_allreduce(const CollectiveSpec& spec, JobSchedule& s);
void binomial_broadcast(const CollectiveSpec& spec, JobSchedule& s);
// Upper bounds on their ops, checked before building (chunks multiply them).
uint64_t double_binary_tree_ops(const CollectiveSpec& spec);
uint64_t binomial_broadcast_ops(const CollectiveSpec& spec);

}  // namespace fabric::traffic::collective_builders
