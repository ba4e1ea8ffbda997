#include "platforms/fabric/fabric_jobs.h"

#include <algorithm>
#include <cstdio>

namespace fabric {

FabricJobs::FabricJobs(const std::vector<traffic::JobPlan>& plans, const std::vector<std::unique_ptr<Cna>>& cnas,
                       const std::unordered_map<uint32_t, uint64_t>& group_macs) {
  listeners_.resize(cnas.size());
  uint32_t first_message = 1;  // 0: not a job frame
  for (const traffic::JobPlan& plan : plans) {
    Job job{&plan, {}};
    const auto messages = static_cast<uint32_t>(plan.messages->all().size());
    for (int r = 0; r < plan.schedule->size(); ++r) {
      const PortId port = plan.ports[static_cast<size_t>(r)];
      job.ranks.push_back(std::make_unique<traffic::RankExecutor>(*plan.schedule, *plan.messages, r, plan.start,
                                                                  plan.step_delay,
                                                                  "job " + plan.name + " rank " + std::to_string(r)));
      std::vector<uint64_t> macs;
      for (const auto& [group, flow] : plan.multicast_flows[static_cast<size_t>(r)])
        macs.push_back(group_macs.at(raw(flow)));
      Cna& cna = *cnas[raw(port)];
      const bool sends = plan.rank_flow[static_cast<size_t>(r)] >= 0 || !macs.empty();
      if (sends)  // a rank that only receives (an incast's root) makes no frames: no source, no flow for QCN
        cna.attach(std::make_unique<JobRankSource>(*job.ranks.back(), plan, first_message, std::move(macs)));
      auto& listener = listeners_[raw(port)];
      if (!listener) {
        listener = std::make_unique<JobPortListener>();
        cna.listen(listener.get());
      }
      listener->add(first_message, messages, *job.ranks.back());
    }
    first_message += messages;
    jobs_.push_back(std::move(job));
  }
}

bool FabricJobs::done() const {
  for (const Job& j : jobs_)
    for (const auto& r : j.ranks)
      if (!r->done()) return false;
  return true;
}

bool FabricJobs::nothing_to_send() const {
  for (const Job& j : jobs_)
    for (const auto& r : j.ranks)
      if (r->next_frame_time() != kNever) return false;
  return true;
}

FabricJobs::Figures FabricJobs::figures(size_t index) const {
  const Job& j = jobs_[index];
  Figures f;
  f.finished = true;
  for (const auto& r : j.ranks) {
    f.completed += r->completed();
    f.operations += r->ops().size();
    if (!r->done())
      f.finished = false;
    else
      f.end = std::max(f.end, r->finished_at());
  }
  if (!f.finished) {
    f.end = -1;
    return f;
  }
  if (j.ranks.empty()) f.end = j.plan->start;
  const Picos time = f.end - j.plan->start;
  if (j.plan->bytes >= 0 && time > 0) {
    f.algbw_gbps = double(j.plan->algorithm_bytes) * j.plan->iterations * 8.0 / double(time) * 1e3;  // B/ps -> Gb/s
    f.busbw_gbps = f.algbw_gbps * j.plan->bus_factor;
  }
  return f;
}

void FabricJobs::record(Recorder& recorder, Picos end) const {
  for (size_t i = 0; i < jobs_.size(); ++i) {
    const Job& j = jobs_[i];
    const traffic::JobPlan& p = *j.plan;
    const Figures f = figures(i);
    JobRecord rec;
    rec.job = p.id;
    rec.name = p.name;
    rec.collective = p.collective;
    rec.algorithm = p.algorithm;
    rec.ports = p.ports;
    rec.bytes = p.bytes;
    rec.iterations = p.iterations;
    rec.steps = p.schedule->steps;
    rec.operations = f.operations;
    rec.completed = 0;
    rec.start = p.start;
    rec.end = f.end;
    rec.algbw_gbps = f.algbw_gbps;
    rec.busbw_gbps = f.busbw_gbps;
    const auto when = [end](Picos t) { return t == kNever || t > end ? Picos{-1} : t; };
    for (const auto& r : j.ranks) {
      rec.rank_ends.push_back(r->done() ? when(r->finished_at()) : -1);
      const auto& ops = r->ops();
      const auto& times = r->times();
      for (uint32_t k = 0; k < ops.size(); ++k) {
        const traffic::JobOp& o = ops[k];
        JobOperationRecord op;
        op.job = p.id;
        op.rank = r->rank();
        op.op = k;
        op.kind = static_cast<uint8_t>(o.kind);
        op.peer = o.peer;
        op.group = o.group;
        op.bytes = o.bytes;
        op.step = o.step;
        op.tag = o.tag;
        op.start = when(times[k].start);
        op.end = when(times[k].end);
        rec.completed += op.end >= 0;
        recorder.job_operation(op);
      }
    }
    recorder.job(rec);
  }
}

void FabricJobs::summarize(std::ostream& out) const {
  out << "jobs:\n";
  for (size_t i = 0; i < jobs_.size(); ++i) {
    const traffic::JobPlan& p = *jobs_[i].plan;
    const Figures f = figures(i);
    char line[256];
    if (!f.finished) {
      std::snprintf(line, sizeof line, "  %-12s %s %s over %zu ranks: not finished, %llu of %llu operations done\n",
                    p.name.c_str(), p.collective.c_str(), p.algorithm.c_str(), p.ports.size(),
                    static_cast<unsigned long long>(f.completed), static_cast<unsigned long long>(f.operations));
    } else if (f.algbw_gbps >= 0) {
      std::snprintf(
          line, sizeof line, "  %-12s %s %s over %zu ranks, %lld B x %d: %.3f us, algbw %.2f Gb/s, busbw %.2f Gb/s\n",
          p.name.c_str(), p.collective.c_str(), p.algorithm.c_str(), p.ports.size(), static_cast<long long>(p.bytes),
          p.iterations, double(f.end - p.start) / 1e6, f.algbw_gbps, f.busbw_gbps);
    } else {
      std::snprintf(line, sizeof line, "  %-12s %s %s over %zu ranks: %.3f us\n", p.name.c_str(), p.collective.c_str(),
                    p.algorithm.c_str(), p.ports.size(), double(f.end - p.start) / 1e6);
    }
    out << line;
  }
}

}  // namespace fabric
