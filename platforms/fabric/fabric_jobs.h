#pragma once
// The closed-loop jobs of a fabric run: each job's ranks run on the CNAs of
// their ports (a JobRankSource each, and a JobPortListener per port that
// hands received job frames back); at the end, each job's times and
// NCCL-tests' figures, and every operation's times, go to the recorder
// (tables jobs, job_ranks, job_operations).
#include <memory>
#include <ostream>
#include <unordered_map>
#include <vector>

#include "model/cna/cna.h"
#include "model/recording/recorder.h"
#include "platforms/fabric/job_frame_source.h"
#include "traffic/jobs/job_params.h"
#include "traffic/jobs/rank_executor.h"

namespace fabric {

class FabricJobs {
 public:
  // group_macs: the MAC of each multicast flow, by flow id.
  FabricJobs(const std::vector<traffic::JobPlan>& plans, const std::vector<std::unique_ptr<Cna>>& cnas,
             const std::unordered_map<uint32_t, uint64_t>& group_macs);

  bool any() const { return !jobs_.empty(); }
  // Every job has completed every op.
  bool done() const;
  // No rank of any job has a send posted, now or later (kNever everywhere).
  bool nothing_to_send() const;
  // Writes jobs, job_ranks and job_operations (ops never started or never
  // completed with -1 times), as far as each got by `end`.
  void record(Recorder& recorder, Picos end) const;
  // A line per job: its collective, time, algbw and busbw, or how far it got.
  void summarize(std::ostream& out) const;

  struct Figures {
    bool finished = false;
    Picos end = -1;
    uint64_t completed = 0, operations = 0;
    double algbw_gbps = -1, busbw_gbps = -1;
  };
  Figures figures(size_t job) const;

 private:
  struct Job {
    const traffic::JobPlan* plan;
    std::vector<std::unique_ptr<traffic::RankExecutor>> ranks;
  };
  std::vector<Job> jobs_;
  std::vector<std::unique_ptr<JobPortListener>> listeners_;  // by port, null where no rank runs
};

}  // namespace fabric
