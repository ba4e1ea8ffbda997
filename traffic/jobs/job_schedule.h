#pragma once
// A job's schedule: per rank, the operations it runs (send, recv, calc) and
// the dependencies between them, as GOAL writes them (LogGOPSim's text
// schedule): an operation starts when the operations it `requires` have
// completed and those it `irequires` have started. Dependencies are local to
// a rank; ranks meet only through messages (a send at one rank, the matching
// recv at another). Plain data, no SystemC; the collective generators
// (collectives.h) and the GOAL reader (goal_reader.h) build it.
#include <cstdint>
#include <string>
#include <vector>

#include "model/core/ids.h"

namespace fabric::traffic {

enum class JobOpKind : uint8_t { send, recv, calc };

struct JobOp {
  JobOpKind kind = JobOpKind::calc;
  uint64_t bytes = 0;           // send, recv: the message's bytes (payload)
  Picos duration = 0;           // calc: how long the rank computes
  int32_t peer = -1;            // send: the destination rank; recv: the source rank (-1: a multicast send, see group)
  int32_t group = -1;           // send: the multicast group it goes to (Schedule::groups), -1 unicast
  uint32_t tag = 0;             // a send matches the recv of its destination with the same source and tag
  uint32_t step = 0;            // the algorithm's step, for per-step figures (GOAL: 0)
  std::vector<uint32_t> after;  // GOAL "requires": ops of this rank that must have completed
  std::vector<uint32_t> after_start;  // GOAL "irequires": ops of this rank that must have started
};

struct RankSchedule {
  std::vector<JobOp> ops;
};

struct JobSchedule {
  std::vector<RankSchedule> ranks;
  // Multicast groups: the ranks each receives a multicast send's message
  // (its sender never among them). A recv of a multicast message names the
  // sender as its peer, like any recv.
  std::vector<std::vector<int32_t>> groups;
  std::string algorithm;  // "ring", "tree", ..., "goal"
  uint32_t steps = 0;     // the algorithm's steps (1 + the largest JobOp::step)

  int size() const { return static_cast<int>(ranks.size()); }
  uint64_t operations() const {
    uint64_t n = 0;
    for (const RankSchedule& r : ranks) n += r.ops.size();
    return n;
  }
};

// Appends an op to a rank and returns its index there.
inline uint32_t add_op(JobSchedule& s, int rank, JobOp op) {
  auto& ops = s.ranks[static_cast<size_t>(rank)].ops;
  ops.push_back(std::move(op));
  return static_cast<uint32_t>(ops.size() - 1);
}

}  // namespace fabric::traffic
