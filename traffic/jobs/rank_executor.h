#pragma once
// One rank of a job running its schedule, closed loop: an op is posted when
// the ops it requires have completed (and those it irequires have started);
// a calc then completes after its duration, a recv when its message has
// arrived here (and it is posted), and a send starts `send_delay` after it
// is posted (the software's per-step delay) and completes when its last
// frame is handed to the adapter. Completion times are propagated as they
// become known, some in the future (a calc's end), so nothing here waits on
// a clock: the adapter asks when the next frame is due.
//
// The adapter serves the sends in progress as a NIC serves queue pairs:
// round robin over destinations (a rank or a multicast group), frame by
// frame, and in order within one destination (a chunked message's chunks
// follow each other). Plain C++, no SystemC.
#include <cstdint>
#include <deque>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/core/ids.h"
#include "traffic/jobs/dependency_witness.h"
#include "traffic/jobs/job_messages.h"
#include "traffic/jobs/job_schedule.h"

namespace fabric::traffic {

class RankExecutor {
 public:
  // `name` names the rank in a broken invariant's message ("job train rank 3").
  RankExecutor(const JobSchedule& schedule, const JobMessages& messages, int rank, Picos start, Picos send_delay,
               std::string name);

  struct Frame {
    uint32_t message = 0;  // JobMessages' id
    uint32_t bytes = 0;
    int32_t dst = -1;  // the receiving rank, or -1 for a multicast group
    int32_t group = -1;
  };
  // When the next frame is due (at or before now when one is), kNever if
  // no send is posted.
  Picos next_frame_time() const;
  // The next frame; requires next_frame_time() <= now.
  Frame pop_frame(Picos now);
  // A frame of message `id` arrived here. Returns whether an op completed.
  bool frame_arrived(uint32_t id, Picos now);

  int rank() const { return rank_; }
  bool done() const { return completed_ == ops_.size(); }
  size_t completed() const { return completed_; }
  const std::vector<JobOp>& ops() const { return ops_; }
  const std::vector<JobOpTimes>& times() const { return times_; }
  // The latest end of its ops (kNever until done; its start when it has none).
  Picos finished_at() const;
  // Frames that arrived for a message this rank has no recv for (never, in
  // a matched schedule; counted for the run's checks).
  uint64_t stray_frames() const { return stray_frames_; }

 private:
  struct Dependent {
    uint32_t op;
    bool on_start;  // irequires: satisfied by the op's start
  };
  void post(uint32_t op, Picos t);
  void start(uint32_t op, Picos t);
  void complete(uint32_t op, Picos t);
  void satisfy(uint32_t op, Picos t);
  void drain_posts();
  void activate_due(Picos now);

  const std::vector<JobOp>& ops_;
  const JobMessages& messages_;
  int rank_;
  Picos send_delay_;
  Picos job_start_;
  std::string name_;
  std::vector<uint32_t> dependents_begin_;  // CSR: op i's dependents are [begin[i], begin[i + 1])
  std::vector<Dependent> dependents_;
  std::vector<uint32_t> unmet_;  // dependencies not yet satisfied
  std::vector<Picos> ready_;     // the latest time of those satisfied
  std::vector<JobOpTimes> times_;
  std::vector<uint32_t> frames_done_;              // send: frames handed over; recv: frames arrived
  std::vector<Picos> arrived_at_;                  // recv: when its message's last frame arrived (kNever before)
  std::vector<std::pair<uint32_t, Picos>> posts_;  // to post, in order (a worklist, not recursion)
  using Due = std::pair<Picos, uint32_t>;          // (start, send op)
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> waiting_;  // posted sends before their start
  std::unordered_map<int32_t, std::deque<uint32_t>> channels_;             // destination -> its sends in progress
  std::vector<int32_t> active_;  // destinations with sends in progress, in round-robin order
  size_t turn_ = 0;
  Picos active_since_ = kNever;
  size_t completed_ = 0;
  uint64_t stray_frames_ = 0;
};

}  // namespace fabric::traffic
