#include "traffic/jobs/job_params.h"

#include <algorithm>
#include <map>
#include <set>

#include "config/config_error.h"
#include "traffic/jobs/goal_reader.h"
#include "traffic/message_source.h"

namespace fabric::traffic {

namespace {

using config::Config;

std::vector<PortId> read_ranks(const Config& config, const JobKeys& k, const std::string& name, int user_ports) {
  const std::string key = k.ranks.key_of(name);
  const std::string allowed = "one or more distinct user ports 0 .. " + std::to_string(user_ports - 1) + ", e.g. 0-63";
  if (!k.ranks.given_in(config, name)) config.fail(key, "the ranks of job " + name + ": " + allowed);
  std::vector<PortId> ports;
  std::set<int64_t> seen;
  for (int64_t p : k.ranks.of(config, name)) {
    if (p < 0 || p >= user_ports || !seen.insert(p).second) config.fail(key, allowed);
    ports.push_back(PortId(static_cast<uint32_t>(p)));
  }
  if (ports.empty()) config.fail(key, allowed);
  return ports;
}

JobSchedule build_schedule(const Config& config, const JobKeys& k, const std::string& name, JobPlan& plan) {
  const int n = static_cast<int>(plan.ports.size());
  if (plan.collective == "goal") {
    if (!k.schedule.given_in(config, name))
      config.fail(k.schedule.key_of(name), "the GOAL schedule file of job " + name + " (collective = goal)");
    const std::string path = k.schedule.of(config, name);
    JobSchedule s = read_goal_file(path, k.schedule.key_of(name), k.calc_unit.of(config, name));
    if (s.size() != n)
      config.fail(k.ranks.key_of(name),
                  "as many ranks as the schedule's num_ranks (" + std::to_string(s.size()) + " in " + path + ")");
    plan.algorithm = path;
    return s;
  }
  CollectiveSpec spec;
  spec.collective = collective_named(plan.collective, k.collective.key_of(name));
  const std::string algorithm = k.algorithm.of(config, name);
  spec.algorithm = algorithm == "default" ? algorithms_of(spec.collective).front() : algorithm;
  spec.ranks = n;
  spec.bytes = static_cast<uint64_t>(k.bytes.of(config, name));
  spec.root = static_cast<int>(k.root.of(config, name));
  spec.chunk_bytes = static_cast<uint64_t>(k.chunk_bytes.of(config, name));
  spec.iterations = plan.iterations;
  spec.key_prefix = "job." + name + ".";
  plan.algorithm = spec.algorithm;
  plan.bytes = static_cast<int64_t>(spec.bytes);
  plan.algorithm_bytes = algorithm_bytes(spec);
  plan.bus_factor = bus_factor(spec.collective, n);
  return build_collective(spec);
}

FlowSpec job_flow(const JobPlan& plan, const std::string& name, PortId src, double line_gbps) {
  FlowSpec f;
  f.name = name;
  f.src = src;
  f.rate_gbps = line_gbps;  // a job sends as fast as its port and its dependencies let it
  f.size =
      FrameSizeDistribution::parse("job." + plan.name + ".bytes", std::to_string(kMaxPayloadBytes + kHeaderFcsBytes));
  f.priority = plan.priority;
  f.start = plan.start;
  f.job = true;
  return f;
}

// The flows of one job's frames, ids from `next` on.
void add_job_flows(JobPlan& plan, const std::string& tree, double line_gbps, std::vector<FlowSpec>& flows) {
  const JobSchedule& s = *plan.schedule;
  const int n = s.size();
  plan.rank_flow.assign(static_cast<size_t>(n), -1);
  plan.multicast_flows.assign(static_cast<size_t>(n), {});
  for (int r = 0; r < n; ++r) {
    std::set<int32_t> peers;
    std::map<int32_t, uint64_t> group_frames;  // the frames of each group's messages
    uint64_t unicast_frames = 0;
    for (const JobOp& o : s.ranks[static_cast<size_t>(r)].ops) {
      if (o.kind != JobOpKind::send) continue;
      if (o.group >= 0) {
        group_frames[o.group] += message_frame_count(o.bytes);
      } else {
        peers.insert(o.peer);
        unicast_frames += message_frame_count(o.bytes);
      }
    }
    const PortId src = plan.ports[static_cast<size_t>(r)];
    if (!peers.empty()) {
      FlowSpec f = job_flow(plan, plan.name + ".r" + std::to_string(r), src, line_gbps);
      f.id = FlowId(static_cast<uint32_t>(flows.size()));
      for (int32_t p : peers) f.dests.push_back(plan.ports[static_cast<size_t>(p)]);
      f.max_frames = unicast_frames;  // what the job sends under it: the database's size estimate
      plan.rank_flow[static_cast<size_t>(r)] = raw(f.id);
      flows.push_back(std::move(f));
    }
    for (const auto& [g, frames] : group_frames) {
      FlowSpec f = job_flow(plan, plan.name + ".r" + std::to_string(r) + ".g" + std::to_string(g), src, line_gbps);
      f.id = FlowId(static_cast<uint32_t>(flows.size()));
      f.multicast = true;
      f.tree = tree;
      f.max_frames = frames;
      for (int32_t member : s.groups[static_cast<size_t>(g)])
        f.dests.push_back(plan.ports[static_cast<size_t>(member)]);
      plan.multicast_flows[static_cast<size_t>(r)].emplace_back(g, f.id);
      flows.push_back(std::move(f));
    }
  }
}

}  // namespace

config::TextSyntax schedule_path_syntax() {
  return {"a file name without control characters", [](const std::string& key, const std::string& text) {
            for (unsigned char c : text)
              if (c < 0x20 || c == 0x7f) throw config::ConfigError(key, text, "a file name without control characters");
          }};
}

Jobs read_jobs(const Config& config, int user_ports, double line_gbps, FlowId first_flow) {
  const config::ParamScope reading(config);
  const JobKeys k;
  Jobs jobs;
  // Flow ids continue the configuration's: build them in a list that
  // starts at first_flow, then hand over only the jobs' own.
  std::vector<FlowSpec> flows(raw(first_flow));
  std::vector<std::string> names = config.instances("job");
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    JobPlan plan;
    plan.id = static_cast<uint32_t>(jobs.plans.size());
    plan.name = name;
    plan.ports = read_ranks(config, k, name, user_ports);
    plan.collective = k.collective.of(config, name);
    plan.start = k.start.of(config, name);
    plan.step_delay = k.step_delay.of(config, name);
    plan.priority = static_cast<int>(k.priority.of(config, name));
    plan.iterations = static_cast<int>(k.iterations.of(config, name));
    plan.schedule = std::make_shared<const JobSchedule>(build_schedule(config, k, name, plan));
    const std::string key = plan.collective == "goal" ? k.schedule.key_of(name) : k.algorithm.key_of(name);
    plan.messages = std::make_shared<const JobMessages>(*plan.schedule, key);
    add_job_flows(plan, k.tree.of(config, name), line_gbps, flows);
    jobs.plans.push_back(std::move(plan));
  }
  jobs.flows.assign(std::make_move_iterator(flows.begin() + raw(first_flow)), std::make_move_iterator(flows.end()));
  return jobs;
}

}  // namespace fabric::traffic
