#include "platforms/app/run_resolution.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "model/core/sim_time.h"
#include "model/leaf/lossless_limits.h"
#include "platforms/app/parameters.h"
#include "platforms/app/sampling_guard.h"
#include "platforms/app/study_catalog.h"
#include "platforms/fabric/link_names.h"
#include "platforms/fabric/multicast_groups.h"
#include "traffic/frame_size.h"
#include "traffic/traffic_params.h"

namespace fabric {

namespace {

// The PAUSE round trip on a CNA-leaf link, for the lossless thresholds.
PauseRoundTrip cna_pause_round_trip(const FabricConfig& f) {
  PauseRoundTrip rt;
  rt.link_gbps = f.topology.cna_link.rate_gbps;
  rt.propagation = to_ps(f.topology.cna_link.propagation);
  rt.lookup = to_ps(f.leaf.lookup);
  rt.overhead_bytes = f.topology.cna_link.overhead_bytes;
  // With the concurrent header the leaf sees a frame after its preamble,
  // without it after the whole (smallest) frame.
  rt.header_after_bytes =
      f.leaf.concurrent_header ? kPreambleBytes : traffic::kMinFrameBytes + f.topology.cna_link.overhead_bytes;
  rt.pause_frame_bytes = f.leaf.control_frame_bytes;
  rt.smallest_frame_bytes = traffic::kMinFrameBytes;
  return rt;
}

// The most headers one lossless frame takes at a user port: one per copy.
uint32_t lossless_headers_per_frame(const std::vector<traffic::FlowSpec>& flows, const LeafParams& leaf) {
  for (const traffic::FlowSpec& f : flows)
    if (f.multicast && leaf.lossless.test(static_cast<size_t>(f.priority))) return kMaxLocalFanout;
  return 1;
}

std::string study_choices() {
  std::string s;
  for (const StudyEntry& e : list_studies()) s += (s.empty() ? "" : ", ") + e.id;
  return "one of: " + s;
}

}  // namespace

// Everything the run needs, validated before anything is written.
ResolvedRun resolve(const CommandLine& cl, config::Config& config) {
  ResolvedRun run;
  if (cl.study || cl.configs.empty()) {
    const std::string id = cl.study ? *cl.study : kDefaultStudy;
    const std::optional<StudyEntry> study = find_study(id);
    if (!study) throw config::ConfigError("--study", id, study_choices());
    config.load_ini(study->path);
    config.exempt_from_use_check();
    run.study = id;
  }
  for (const std::string& file : cl.configs) {
    config.load_ini(file);
    if (run.study.empty()) run.study = std::filesystem::path(file).stem().string();
  }
  for (const std::string& assignment : cl.sets) config.set_assignment(assignment);
  if (cl.time) config.set("sim.time", *cl.time);
  if (cl.seed) config.set("sim.seed", *cl.seed);

  run.fabric.spine = read_spine_params(config);
  run.fabric.topology = read_topology_params(config, run.fabric.spine.ports);
  run.fabric.leaf = read_leaf_params(config);
  run.fabric.cna = read_cna_params(config);
  run.fabric.cna.scale_to_line(run.fabric.topology.cna_link.rate_gbps);
  run.fabric.credit_return = read_credit_return_params(config);
  run.fabric.retry = read_link_retry_params(
      config, std::max(run.fabric.leaf.packet_bytes, run.fabric.leaf.control_frame_bytes));
  run.fabric.errors = read_link_error_params(
      config, [&](const std::string& link) { return names_link(run.fabric.topology.geometry, link); });
  run.seed = static_cast<uint64_t>(config.get_int("sim.seed"));
  run.threads = static_cast<int>(config.get_int("sim.threads"));
  run.loop.sim_time = config.get_duration("sim.time");
  run.loop.slice = config.get_duration("sim.progress_slice");
  run.loop.stall_timeout = config.get_duration("sim.stall_timeout");
  if (run.fabric.leaf.retransmit) run.loop.recovery_wait = run.fabric.leaf.retransmit_timeout;
  if (run.fabric.cna.e2e.enabled) run.loop.recovery_wait = std::max(run.loop.recovery_wait, run.fabric.cna.e2e.timeout);
  run.loop.sample_interval = config.get_duration("record.sample_interval");
  run.lock_wait_seconds = static_cast<double>(config.get_duration("record.lock_wait")) / 1e12;
  check_sampling(config, run.loop.sim_time, run.loop.sample_interval,
                 occupancy_samples_per_instant(run.fabric.topology.geometry));
  run.loop.progress = !cl.quiet;
  run.flows = traffic::read_flows(config, run.fabric.topology.geometry.user_ports(),
                                  run.fabric.topology.cna_link.rate_gbps, run.seed,
                                  run.fabric.topology.geometry.user_ports_per_leaf);
  apply_lossless_limits(config, run.fabric.leaf, cna_pause_round_trip(run.fabric), traffic::kMaxFrameBytes,
                        lossless_headers_per_frame(run.flows, run.fabric.leaf));
  run.fabric.trees.max_levels = static_cast<int>(config.get_int("multicast.max_levels"));
  run.fabric.trees.max_source_fanout = static_cast<size_t>(config.get_int("multicast.source_fanout"));
  {  // every multicast group has a legal tree, or the run stops here
    Fdb fdb;
    McbcTable mcbc;
    install_multicast_groups(run.flows, run.fabric.topology.geometry, run.fabric.trees, fdb, mcbc);
  }
  config.check_all_used();
  run.config_text = config.resolved_text();
  return run;
}

}  // namespace fabric
