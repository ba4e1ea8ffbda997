#include "platforms/app/fabricsim_app.h"

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "config/config.h"
#include "config/param_listing.h"
#include "db/database_path.h"
#include "db/sqlite_recorder.h"
#include "model/core/sim_time.h"
#include "model/core/stop_request.h"
#include "model/invariants/invariant_broken.h"
#include "model/link/link_census.h"
#include "model/recording/metric_catalog.h"
#include "platforms/app/command_line.h"
#include "platforms/app/database_size.h"
#include "platforms/app/explain.h"
#include "platforms/app/huge_pages.h"
#include "platforms/app/parameters.h"
#include "platforms/app/platform_catalog.h"
#include "platforms/app/refusal_cause.h"
#include "platforms/app/run_loop.h"
#include "platforms/app/run_resolution.h"
#include "platforms/app/run_summary.h"
#include "platforms/app/stop_signals.h"
#include "platforms/app/study_catalog.h"
#include "platforms/app/sweep_points.h"
#include "platforms/app/terminal_width.h"

namespace fabric {

namespace {

// A run stopped on a broken invariant (1: a stall or another model error).
constexpr int kInvariantBrokenExit = 3;

// sim.threads = 0: every core but one for the database writer when it
// writes every frame.
int worker_threads(int configured, bool frames_recorded) {
  if (configured > 0) return configured;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores - (frames_recorded ? 1 : 0));
}

void record_metadata(db::SqliteRecorder& rec, const ResolvedRun& run) {
  run.setup->describe_ports(rec);
  for (const traffic::FlowSpec& f : run.flows) {
    // A flow of messages records its message size (frame_bytes: the size
    // when fixed), others their frame size.
    std::optional<int64_t> fixed;
    if (f.message) {
      if (auto size = f.message->fixed()) fixed = static_cast<int64_t>(*size);
    } else if (auto size = f.size.fixed()) {
      fixed = *size;
    }
    const std::string size_text = f.message ? f.message->text() : f.size.text();
    rec.add_flow(raw(f.id), f.name, f.multicast ? "multicast" : "unicast", raw(f.src), f.priority, f.rate_gbps, fixed,
                 size_text, f.start, f.stop < 0 ? std::nullopt : std::optional<Picos>(f.stop));
    for (PortId d : f.dests) rec.add_flow_dest(raw(f.id), raw(d));
  }
}

db::RunInfo run_info(const CommandLine& cl, const ResolvedRun& run) {
  db::RunInfo info{run.study, run.config_text, FABRICSIM_VERSION, cl.record, run.seed, run.platform, {}, {}};
  for (const config::ResolvedParam& p : run.params)
    info.params.push_back({p.key, p.value, config::to_string(p.source), p.origin, p.number});
  for (const config::CheckResult& w : run.warnings) info.warnings.push_back({w.name, joined_keys(w), w.detail});
  return info;
}

// SystemC's reports (warnings, errors) go to stderr with the other
// diagnostics, never into the results on stdout.
void report_on_stderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY) std::cerr << sc_core::sc_report_compose_message(report) << std::endl;
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

const char* status_of(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::done:
      return "done";
    case RunOutcome::interrupted:
      return "interrupted";
    case RunOutcome::stalled:
      return "failed";
    case RunOutcome::recording_failed:
      return "failed";  // finish() says why
  }
  return "failed";
}

int simulate(const CommandLine& cl, const ResolvedRun& run) {
  std::unique_ptr<db::SqliteRecorder> rec;
  try {
    rec = std::make_unique<db::SqliteRecorder>(cl.db, cl.record == "frames", run.lock_wait_seconds);
  } catch (const db::DbError& e) {
    std::cerr << "fabricsim: " << e.what() << "\n";
    return 2;
  }
  for (const db::AbandonedRun& a : rec->abandoned_runs())
    std::cerr << "fabricsim: " << cl.db << ": " << describe(a) << "\n";
  sc_core::sc_report_handler::set_handler(report_on_stderr);
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY | sc_core::SC_THROW);
  sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_DISPLAY | sc_core::SC_THROW);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  // An exception out of the model (a lockstep mismatch, say) is reported
  // below with the model's time: SystemC's own report of it would give the
  // kernel's, which the scheduler runs ahead of.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_SIMULATION_UNCAUGHT_EXCEPTION_, sc_core::SC_THROW);

  // Built before the run has its row: a stop while it builds (seconds for
  // the full system) ends the process at once with nothing written.
  HugePageAdvisor huge_pages;
  huge_pages.reserve(size_t{1} << 30);  // address space for the full fabric's ~400 MiB
  std::unique_ptr<PlatformTop> top = run.setup->build(run.flows, run.seed, *rec);
  top->set_threads(worker_threads(run.threads, cl.record == "frames"));
  huge_pages.advise();
  set_run_phase(RunPhase::running);
  try {
    rec->begin_run(run_info(cl, run));
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
    return !rec->write_failed();
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
      rec->event(result.simulated, EventKind::stall, rec->declare(EntityKind::system, run.platform), -1,
                 static_cast<double>(top->backlog()));
      exit_code = 1;
    } else if (result.outcome == RunOutcome::interrupted) {
      exit_code = stopped_exit_status();
    }
  } catch (const InvariantBroken& e) {
    result.simulated = now_ps();
    status = "failed";
    exit_code = kInvariantBrokenExit;
  } catch (const sc_core::sc_report& e) {
    // The model's time, not the kernel's (the scheduler runs ahead of
    // SystemC in windows), and the message without the kernel's decoration.
    result.simulated = now_ps();
    status = "failed";
    exit_code = 1;
    if (!first_broken_invariant())
      std::cerr << "fabricsim: the model stopped at " << result.simulated / 1e6 << " us simulated: " << e.get_msg()
                << "\n";
  }
  // However it left the kernel (SystemC wraps what a process throws), a
  // broken invariant is reported as such.
  const std::optional<InvariantBroken> broken = first_broken_invariant();
  if (broken) {
    std::cerr << "fabricsim: " << broken->what() << "\n";
    rec->event(broken->time(), EventKind::invariant_broken, rec->declare(EntityKind::system, run.platform), -1, 0);
    status = "failed";
    exit_code = kInvariantBrokenExit;
  }
  top->finish(result.simulated);
  const EntityId system = rec->declare(EntityKind::system, run.platform);
  rec->total(system, metric::link_messages, static_cast<double>(top->messages_moved()));
  const LinkCensus::Counts by_kind = LinkCensus::totals();
  for (int k = 0; k < LinkCensus::kKinds; ++k)
    if (by_kind[k] > 0)
      rec->total(system, metric::link_messages_of.member(LinkCensus::name(k)), static_cast<double>(by_kind[k]));
  rec->total(system, metric::frames_delivered, static_cast<double>(top->frames_delivered()));
  try {
    rec->finish(status, result.simulated, result.wall_seconds);
  } catch (const db::DbError& e) {
    std::cerr << "fabricsim: " << e.what()
              << (e.out_of_space() ? "; make room, or record less (--record summary, a shorter --time)" : "") << "\n";
    return 1;
  }
  print_summary(
      std::cout,
      {run.study, cl.db, rec->run_id(), status, broken.has_value(), find_platform(run.platform)->vocabulary()}, result,
      *top);
  if (!run.warnings.empty()) {
    std::cout << "  warnings (" << run.warnings.size() << ", in run_warnings):\n";
    for (const config::CheckResult& w : run.warnings) std::cout << "    " << w.detail << "\n";
  }
  rec.reset();  // closes the database
  // The top is not destroyed object by object: SystemC unregisters each
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
  for (const std::string& note : cl.notes) std::cerr << "fabricsim: note: " << note << "\n";
  if (cl.help) {
    std::cout << cl.help_text;
    return 0;
  }
  if (cl.list_metrics) {
    std::cout << metric_table_markdown();
    return 0;
  }
  if (cl.check_db) {  // the sweep runner's --db, by the rule of fabricsim's
    const std::optional<std::string> why = db::database_path_problem(*cl.check_db);
    if (why) std::cerr << "fabricsim: " << db::database_path_message("--db", *cl.check_db, *why) << "\n";
    return why ? 2 : 0;
  }
  const config::ParamRegistry registry = build_registry();
  if (cl.list_params && !cl.resolved) {
    const std::string listing = cl.list_format == "tsv"
                                    ? config::list_params_tsv(registry, cl.list_pattern)
                                    : config::list_params_text(registry, cl.list_pattern, terminal_width());
    if (listing.empty()) {
      std::cerr << "fabricsim: " << config::no_key_listed(registry, cl.list_pattern).what() << "\n";
      return 2;
    }
    std::cout << listing;
    return 0;
  }
  if (cl.list_studies) {
    try {
      for (const StudyEntry& s : list_studies()) std::cout << s.id << "\t" << s.platform << "\t" << s.title << "\n";
    } catch (const config::ConfigError& e) {
      std::cerr << "fabricsim: " << e.what() << "\n";
      return 2;
    }
    return 0;
  }
  if (cl.points) return list_sweep_points(cl, registry, std::cout, std::cerr);
  config::Config config(registry);
  ResolvedRun run;
  try {
    run = resolve(cl, config);
    for (const std::string& note : config.renamed_keys_used()) std::cerr << "fabricsim: note: " << note << "\n";
    if (cl.search_lines) {
      for (const config::IniEntry& line : config.search_lines()) std::cout << line.key << " = " << line.value << "\n";
      return 0;
    }
    if (cl.explain) {
      explain_key(config, registry, *cl.explain, std::cout, std::cerr);
      return 0;
    }
  } catch (const config::ConfigError& e) {
    std::cerr << "fabricsim: " << with_its_cause(cl, config.locate(e)).what() << "\n";
    return 2;
  }
  if (cl.resolved) {
    try {
      print_resolved_params(config, std::cout, cl.list_pattern);
    } catch (const config::ConfigError& e) {
      std::cerr << "fabricsim: " << e.what() << "\n";
      return 2;
    }
    return 0;
  }
  print_departures(config.notes(), std::cerr);
  print_warnings(run.warnings, std::cerr);
  if (cl.strict && !run.warnings.empty()) {
    std::cerr << "fabricsim: --strict: " << run.warnings.size()
              << " check(s) of physical constraints do not hold (above); nothing was run or written\n";
    return 2;
  }
  const DatabaseGrowth growth =
      estimate_database_growth(run.flows, run.loop.sim_time, run.occupancy_samples, cl.record == "frames");
  if (const auto problem =
          database_size_problem(growth, run.loop.sim_time, run.max_db_bytes, free_bytes_for(cl.db), cl.db)) {
    std::cerr << "fabricsim: " << *problem << "\n";
    return 2;
  }
  return simulate(cl, run);
}

}  // namespace fabric
