#include "traffic/jobs/dependency_witness.h"

#include "model/invariants/invariant_broken.h"

namespace fabric::traffic {

void check_send_dependencies(const RankRecord& rank, uint32_t send, Picos now, const std::string& rank_name) {
  const Picos latest = now - rank.send_delay;
  auto broken = [&](uint32_t dep, const std::string& what) {
    break_invariant(invariant::kJobDependencies, rank_name, now,
                    "op " + std::to_string(send) + " (a send of " + std::to_string(rank.ops[send].bytes) +
                        " B) sent its first frame before op " + std::to_string(dep) + " " + what);
  };
  for (uint32_t d : rank.ops[send].after) {
    if (rank.times[d].end == kNever || rank.times[d].end > latest) broken(d, "it requires had completed");
    if (rank.ops[d].kind == JobOpKind::recv && rank.arrived_at[d] > rank.times[d].end) broken(d, "had its message");
  }
  for (uint32_t d : rank.ops[send].after_start)
    if (rank.times[d].start == kNever || rank.times[d].start > latest) broken(d, "it irequires had started");
  if (now < rank.job_start + rank.send_delay) broken(send, "(before the job's start)");
}

}  // namespace fabric::traffic
