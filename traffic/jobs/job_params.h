#pragma once
// Configuration keys of closed-loop jobs (job.NAME.*), each declared once
// (config/param.h), and the jobs they describe: each job's ranks, its
// schedule (a collective's, or a GOAL file's), and the flows its frames are
// recorded under: one unicast flow per rank that sends to others
// ("NAME.r<rank>"), one multicast flow per multicast send group
// ("NAME.r<rank>.g<group>", replicated through surrogate ports like any
// multicast flow).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/param.h"
#include "traffic/flow_spec.h"
#include "traffic/jobs/collectives.h"
#include "traffic/jobs/job_messages.h"
#include "traffic/jobs/job_schedule.h"

namespace fabric::traffic {

// job.NAME.schedule: a file name (read when the job is built).
config::TextSyntax schedule_path_syntax();

struct JobKeys {
  config::PatternParam<config::IntList> ranks{
      "job.*.ranks", "", "", "closed-loop job: its ranks' user ports in rank order, e.g. 0-63 (required)"};
  config::PatternParam<config::Choice> collective{
      "job.*.collective",
      "allreduce",
      "closed-loop job: the collective it runs, or goal (job.NAME.schedule, a GOAL file)",
      {"allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "incast", "permutation", "goal"}};
  config::PatternParam<config::Choice> algorithm{
      "job.*.algorithm",
      "default",
      "closed-loop job: the collective's algorithm; default: the first its collective allows (allreduce ring|tree, "
      "allgather ring|recursive_doubling|multicast, reducescatter ring, alltoall pairwise|direct, broadcast "
      "binomial|multicast, incast direct, permutation shift)",
      {"default", "ring", "tree", "recursive_doubling", "multicast", "pairwise", "direct", "binomial", "shift"}};
  config::PatternParam<config::Bytes> bytes{
      "job.*.bytes",
      "1MB",
      "B",
      "closed-loop job: the collective's size as NCCL-tests counts it (allreduce, broadcast: the buffer; allgather: "
      "the output; reducescatter: the input; alltoall: each rank's send buffer; incast: what each sender sends; "
      "permutation: what each rank sends its partner)",
      0,
      1099511627776.0};
  config::PatternParam<config::Integer> root{
      "job.*.root", "0", "", "closed-loop job: the root rank of a broadcast or incast", 0, 1e6};
  config::PatternParam<config::Bytes> chunk_bytes{
      "job.*.chunk_bytes",
      "128KB",
      "B",
      "closed-loop job: the tree all-reduce's and binomial broadcast's pipelining chunk; 0: the whole message (not "
      "given by the documents: NCCL's trees pipeline in chunks of this order)",
      0,
      1099511627776.0};
  config::PatternParam<config::Integer> iterations{"job.*.iterations",
                                                   "1",
                                                   "",
                                                   "closed-loop job: the collective this many times back to back (a "
                                                   "rank starts the next once it has done its part of the last)",
                                                   1,
                                                   100000};
  config::PatternParam<config::Duration> start{
      "job.*.start", "0", "ps", "closed-loop job: when its ranks start", 0, double(kLatestConfiguredTime)};
  config::PatternParam<config::Duration> step_delay{
      "job.*.step_delay",
      "0",
      "ps",
      "closed-loop job: the software's delay per step: a send starts this long after what it requires has completed",
      0,
      1e12};
  config::PatternParam<config::Integer> priority{
      "job.*.priority", "0", "", "closed-loop job: the Ethernet priority of its frames", 0, 7};
  config::PatternParam<config::Text> schedule{
      "job.*.schedule", "", "",
      "closed-loop job with collective = goal: the GOAL schedule file (LogGOPSim's text format; docs/jobs.md), its "
      "num_ranks equal to the job's ranks",
      schedule_path_syntax()};
  config::PatternParam<config::Duration> calc_unit{
      "job.*.calc_unit",
      "1ns",
      "ps",
      "closed-loop job with collective = goal: the time of one unit of a GOAL calc",
      1,
      1e9};
  config::PatternParam<config::Choice> tree{
      "job.*.tree",
      "generic",
      "closed-loop job with multicast sends: the replication tree builder of its groups (as flow.NAME.tree)",
      {"generic", "affinity"}};
};

// A job as configured, its schedule built and its messages matched.
struct JobPlan {
  uint32_t id = 0;  // jobs.job_id: in name order
  std::string name;
  std::string collective;     // allreduce, ..., goal
  std::string algorithm;      // ring, ... (goal: the schedule file)
  std::vector<PortId> ports;  // rank r's user port
  Picos start = 0;
  Picos step_delay = 0;
  int priority = 0;
  int iterations = 1;
  int64_t bytes = -1;            // the collective's size; -1 for goal
  uint64_t algorithm_bytes = 0;  // NCCL-tests' algbw numerator, per iteration
  double bus_factor = 0;
  std::shared_ptr<const JobSchedule> schedule;
  std::shared_ptr<const JobMessages> messages;
  std::vector<int64_t> rank_flow;  // rank r's unicast flow id, -1 if it sends none
  // Rank r's multicast flows: (group, flow id), one per group it sends to.
  std::vector<std::vector<std::pair<int32_t, FlowId>>> multicast_flows;
};

// The jobs of the configuration (sorted by name) and their flows, whose ids
// follow first_flow on. Throws config::ConfigError naming the key at fault.
struct Jobs {
  std::vector<JobPlan> plans;
  std::vector<FlowSpec> flows;
};
Jobs read_jobs(const config::Config& config, int user_ports, double line_gbps, FlowId first_flow);

}  // namespace fabric::traffic
