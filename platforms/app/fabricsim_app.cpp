#include "platforms/app/fabricsim_app.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "db/sqlite_recorder.h"
#include "model/config/config.h"
#include "model/core/sim_time.h"
#include "model/core/stop_request.h"
#include "model/leaf/lossless_limits.h"
#include "platforms/app/command_line.h"
#include "platforms/app/huge_pages.h"
#include "platforms/app/parameters.h"
#include "platforms/app/run_loop.h"
#include "platforms/app/run_summary.h"
#include "platforms/app/sampling_guard.h"
#include "platforms/app/stop_signals.h"
#include "platforms/fabric/link_names.h"
#include "platforms/app/study_catalog.h"
#include "platforms/fabric/fabric_top.h"
#include "platforms/fabric/multicast_groups.h"
#include "traffic/frame_size.h"
#include "traffic/traffic_params.h"

namespace fabric {

namespace {

struct ResolvedRun {
  std::string study;
  FabricConfig fabric;
  std::vector<traffic::FlowSpec> flows;
  uint64_t seed = 1;
  RunLoopOptions loop;
  std::string config_text;
  double lock_wait_seconds = 0;
  int threads = 0;  // sim.threads; 0: chosen from the cores
};

// sim.threads = 0: every core but one for the database writer when it
// writes every frame.
int worker_threads(int configured, bool frames_recorded) {
  if (configured > 0) return configured;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores - (frames_recorded ? 1 : 0));
}

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

void record_metadata(db::SqliteRecorder& rec, const ResolvedRun& run) {
  const Geometry& g = run.fabric.topology.geometry;
  for (int p = 0; p < g.user_ports(); ++p) {
    const LeafId leaf = g.leaf_of(PortId(p));
    rec.add_port(p, raw(leaf), "user", g.rack_of(leaf), g.chassis_of(leaf), g.cie_of(leaf));
  }
  for (int l = 0; l < g.leaves; ++l) {  // addressed now; replication through them comes with multicast
    const LeafId leaf = LeafId(l);
    rec.add_port(raw(g.surrogate_port(leaf)), l, "surrogate", g.rack_of(leaf), g.chassis_of(leaf), g.cie_of(leaf));
  }
  for (const traffic::FlowSpec& f : run.flows) {
    std::optional<int64_t> fixed;
    if (auto size = f.size.fixed()) fixed = *size;
    rec.add_flow(raw(f.id), f.name, f.multicast ? "multicast" : "unicast", raw(f.src), f.priority, f.rate_gbps, fixed, f.size.text(), f.start,
                 f.stop < 0 ? std::nullopt : std::optional<Picos>(f.stop));
    for (PortId d : f.dests) rec.add_flow_dest(raw(f.id), raw(d));
  }
}

const char* status_of(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::done: return "done";
    case RunOutcome::interrupted: return "interrupted";
    case RunOutcome::stalled: return "failed";
  }
  return "failed";
}

int simulate(const CommandLine& cl, const ResolvedRun& run) {
  std::unique_ptr<db::SqliteRecorder> rec;
  try {
    rec = std::make_unique<db::SqliteRecorder>(cl.db, cl.log_level == "frames", run.lock_wait_seconds);
  } catch (const db::DbError& e) {
    std::cerr << "fabricsim: " << e.what() << "\n";
    return 2;
  }
  for (const db::AbandonedRun& a : rec->abandoned_runs()) std::cerr << "fabricsim: " << cl.db << ": " << describe(a) << "\n";
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY | sc_core::SC_THROW);
  sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_DISPLAY | sc_core::SC_THROW);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);

  // Built before the run has its row: a stop while it builds (seconds for
  // the full system) ends the process at once with nothing written.
  HugePageAdvisor huge_pages;
  huge_pages.reserve(size_t{1} << 30);  // address space for the full system's ~400 MiB
  auto top = std::make_unique<FabricTop>("fabric", run.fabric, run.flows, run.seed, *rec);
  top->set_threads(worker_threads(run.threads, cl.log_level == "frames"));
  huge_pages.advise();
  set_run_phase(RunPhase::running);
  try {
    rec->begin_run({run.study, run.config_text, FABRICSIM_VERSION, cl.log_level, run.seed});
    record_metadata(*rec, run);
    rec->flush();  // the run's description is in before anything is simulated
  } catch (const db::DbError& e) {
    std::cerr << "fabricsim: " << e.what() << "\n";
    return StopRequest::raised() ? stopped_exit_status() : 2;
  }
  RunLoopOptions loop = run.loop;
  loop.on_slice = [&rec, &huge_pages](Picos reached) {
    rec->reached(reached);
    huge_pages.keep_up();
  };
  RunResult result;
  std::string status;
  int exit_code = 0;
  try {
    if (StopRequest::raised()) {
      result.outcome = RunOutcome::interrupted;  // stopped while the run started
    } else {
      result = run_simulation(*top, loop, std::cerr);
    }
    status = status_of(result.outcome);
    if (result.outcome == RunOutcome::stalled) {
      std::cerr << "fabricsim: stall at " << result.simulated / 1e6
                << " us: nothing moved for sim.stall_timeout while traffic is pending; blocked queues:\n";
      top->describe_backlog(std::cerr, 40);
      rec->event(result.simulated, EventKind::stall, "fabric", -1, static_cast<double>(top->backlog()));
      exit_code = 1;
    } else if (result.outcome == RunOutcome::interrupted) {
      exit_code = stopped_exit_status();
    }
  } catch (const sc_core::sc_report& e) {
    std::cerr << "fabricsim: the model stopped: " << e.what() << "\n";
    status = "failed";
    exit_code = 1;
  }
  top->finish(result.simulated);
  rec->sample(result.simulated, "fabric", "link_messages", static_cast<double>(top->messages_moved()));
  rec->sample(result.simulated, "fabric", "frames_delivered", static_cast<double>(top->frames_delivered()));
  try {
    rec->finish(status, result.simulated, result.wall_seconds);
  } catch (const db::DbError& e) {
    std::cerr << "fabricsim: " << e.what() << "\n";
    return 1;
  }
  print_summary(std::cout, {run.study, cl.db, rec->run_id(), status}, result, *top, run.flows);
  rec.reset();  // closes the database
  // The fabric is not destroyed object by object: SystemC unregisters each
  // module, port and export by a linear search, which for the ~40,000 of a
  // full system takes seconds. The process is about to end and the OS
  // reclaims its memory at once.
  static_cast<void>(top.release());
  return exit_code;
}

}  // namespace

int run_fabricsim(int argc, const char* const argv[]) {
  install_stop_signals();
  CommandLine cl;
  try {
    cl = parse_command_line(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::cerr << "fabricsim: " << e.what() << "\n";
    return 2;
  }
  if (cl.help) {
    std::cout << cl.help_text;
    return 0;
  }
  const config::ParamRegistry registry = build_registry();
  if (cl.list_params) {
    std::cout << registry.describe();
    return 0;
  }
  if (cl.list_studies) {
    for (const StudyEntry& s : list_studies()) std::cout << s.id << "\t" << s.title << "\n";
    return 0;
  }
  config::Config config(registry);
  ResolvedRun run;
  try {
    run = resolve(cl, config);
  } catch (const config::ConfigError& e) {
    std::cerr << "fabricsim: " << config.locate(e).what() << "\n";
    return 2;
  }
  return simulate(cl, run);
}

}  // namespace fabric
