#pragma once
// The invariant "a job's message starts after its dependencies", checked
// at a send's first frame against what the rank recorded of the ops it
// waits for (their ends and starts, and when each recv's message arrived):
// every op it requires ended, and every op it irequires started, at least
// the per-step delay before the frame; every required recv's message was
// in before that recv ended. A RankExecutor that posted a send too early
// (or took a frame before the job's start) breaks it. Plain C++.
#include <string>
#include <vector>

#include "model/core/ids.h"
#include "traffic/jobs/job_schedule.h"

namespace fabric::traffic {

struct JobOpTimes {
  Picos start = kNever;  // posted (a send: its start, after the delay)
  Picos end = kNever;    // completed
};

struct RankRecord {
  const std::vector<JobOp>& ops;
  const std::vector<JobOpTimes>& times;
  const std::vector<Picos>& arrived_at;  // recv: when its message's last frame arrived (kNever before)
  Picos job_start;
  Picos send_delay;
};

// Throws InvariantBroken (break_invariant) naming `rank_name` when send
// `op`'s first frame at `now` comes before what it waits for.
void check_send_dependencies(const RankRecord& rank, uint32_t op, Picos now, const std::string& rank_name);

}  // namespace fabric::traffic
