#pragma once
// Adapts one rank of a closed-loop job (traffic::RankExecutor) to the CNA:
// the frames its posted sends are due to send, addressed to a rank's port
// or to a multicast group, and recorded under the job's flows; and the job
// frames the CNA receives, handed to the rank of the job they belong to.
#include <utility>
#include <vector>

#include "model/cna/frame_source.h"
#include "model/leaf/fdb.h"
#include "traffic/jobs/job_params.h"
#include "traffic/jobs/rank_executor.h"

namespace fabric {

// A frame's FrameHeader::message: 1 + the job's first message number + its
// number within the job, so that one number names a message of any job.
class JobRankSource final : public FrameSource {
 public:
  // group_macs: the MAC of each of this rank's multicast flows, as the plan lists them.
  JobRankSource(traffic::RankExecutor& rank, const traffic::JobPlan& plan, uint32_t first_message,
                std::vector<uint64_t> group_macs)
      : rank_(rank), plan_(plan), first_message_(first_message), group_macs_(std::move(group_macs)) {
    const auto r = static_cast<size_t>(rank.rank());
    // A rank with sends has a unicast flow or a multicast one (FabricJobs attaches no other).
    flow_ = plan.rank_flow[r] >= 0 ? FlowId(static_cast<uint32_t>(plan.rank_flow[r]))
                                   : plan.multicast_flows[r].at(0).second;
  }
  // The flow a QCN CNM must name to limit this rank: its unicast flow (a
  // rank that only multicasts: its first multicast flow).
  FlowId flow() const override { return flow_; }
  int priority() const override { return plan_.priority; }
  Picos next_time() const override { return rank_.next_frame_time(); }
  NewFrame pop(Picos now) override {
    const traffic::RankExecutor::Frame f = rank_.pop_frame(now);
    const uint32_t message = first_message_ + f.message;
    if (f.group < 0) return {now, mac_of(plan_.ports[static_cast<size_t>(f.dst)]), f.bytes, flow_of_unicast(), message};
    const auto& flows = plan_.multicast_flows[static_cast<size_t>(rank_.rank())];
    for (size_t i = 0; i < flows.size(); ++i)
      if (flows[i].first == f.group) return {now, group_macs_[i], f.bytes, flows[i].second, message};
    throw std::logic_error("job " + plan_.name + ": a multicast send to a group without its flow");
  }
  void defer_to(Picos) override {}  // a job's frames wait in its sends, not in time

 private:
  FlowId flow_of_unicast() const {
    return FlowId(static_cast<uint32_t>(plan_.rank_flow[static_cast<size_t>(rank_.rank())]));
  }
  traffic::RankExecutor& rank_;
  const traffic::JobPlan& plan_;
  uint32_t first_message_;
  std::vector<uint64_t> group_macs_;
  FlowId flow_;
};

// The job frames one CNA receives, handed to its rank of the job each
// belongs to (a port may be a rank of several jobs).
class JobPortListener final : public MessageListener {
 public:
  void add(uint32_t first_message, uint32_t messages, traffic::RankExecutor& rank) {
    ranks_.push_back({first_message, messages, &rank});
  }
  bool arrived(const FrameHeader& frame, Picos now) override {
    for (const Entry& e : ranks_)
      if (frame.message >= e.first && frame.message - e.first < e.count)
        return e.rank->frame_arrived(frame.message - e.first, now);
    return false;  // another job's frame to a port outside it: cannot happen, the fabric delivers by MAC
  }

 private:
  struct Entry {
    uint32_t first;
    uint32_t count;
    traffic::RankExecutor* rank;
  };
  std::vector<Entry> ranks_;
};

}  // namespace fabric
