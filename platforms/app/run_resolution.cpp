#include "platforms/app/run_resolution.h"

#include <filesystem>
#include <optional>

#include "config/close_names.h"
#include "config/sweep_spec.h"
#include "platforms/app/parameters.h"
#include "platforms/app/platform_catalog.h"
#include "platforms/app/study_catalog.h"
#include "platforms/app/sweep_keys.h"

namespace fabric {

namespace {

// The study ids, and those near `asked` (a typo: perm64 for perm640).
std::string study_choices(const std::string& asked) {
  std::string s;
  std::vector<std::string> ids;
  for (const StudyEntry& e : list_studies()) {
    s += (s.empty() ? "" : ", ") + e.id;
    ids.push_back(e.id);
  }
  return "one of: " + s + " (" + study_folder_text() + ")" + config::did_you_mean(config::close_names(asked, ids));
}

}  // namespace

// Everything the run needs, validated before anything is written.
ResolvedRun resolve(const CommandLine& cl, config::Config& config) {
  ResolvedRun run;
  if (cl.study || cl.configs.empty()) {
    const std::string id = cl.study ? *cl.study : kDefaultStudy;
    const std::optional<std::string> study = find_study_file(id);
    if (!study && !cl.study && study_dir_variable())  // the default study, which the user did not name
      throw config::ConfigError(kStudyDirVariable, *study_dir_variable(),
                                "a folder with " + id +
                                    ".ini, the default study (run without --study or --config), or "
                                    "--study " +
                                    study_choices(""));
    if (!study) throw config::ConfigError("--study", id, study_choices(id));
    config.load_ini(*study, config::ValueSource::study);
    config.exempt_from_use_check();
    run.study = id;
  }
  for (const std::string& file : cl.configs) {
    config.load_ini(file);
    if (run.study.empty()) run.study = std::filesystem::path(file).stem().string();
  }
  // A broken [sweep] section is refused by every run of the file, not only by its sweep.
  if (cl.swept.empty()) static_cast<void>(config::SweepSpec::parse(config.sweep_lines(), config.registry()));
  for (const std::string& assignment : cl.sets) config.set_assignment(assignment);
  for (const std::string& assignment : cl.swept) config.set_assignment(assignment, config::ValueSource::sweep);
  {
    const RunKeys names = run_keys();  // the defaults: for the keys' names
    if (cl.time) config.set(names.time.key(), *cl.time);
    if (cl.seed) config.set(names.seed.key(), *cl.seed);
  }

  config::ParamScope reading(config);
  const RunKeys keys = run_keys();
  config.select_platform(keys.platform);
  const Platform& platform = *find_platform(keys.platform);
  run.platform = keys.platform;
  run.seed = static_cast<uint64_t>(keys.seed.value());
  run.threads = static_cast<int>(keys.threads.value());
  run.max_sweep_points = static_cast<uint64_t>(SweepKeys().max_points.value());  // a point's run passes it on
  run.loop.sim_time = keys.time;
  run.loop.slice = keys.progress_slice;
  run.loop.stall_timeout = keys.stall_timeout;
  run.loop.sample_interval = keys.sample_interval;
  run.lock_wait_seconds = static_cast<double>(keys.lock_wait.value()) / 1e12;
  run.max_db_bytes = keys.max_db_bytes;
  run.loop.progress = !cl.quiet;
  PlatformResolution resolution = platform.resolve(
      config,
      SharedRunKeys{run.seed, run.loop.sim_time, run.loop.sample_interval, keys.stall_timeout, keys.max_samples});
  run.setup = std::move(resolution.run);
  run.flows = std::move(resolution.flows);
  run.loop.recovery_wait = resolution.recovery_wait;
  run.loop.quiet_time = resolution.quiet_time;
  run.occupancy_samples = resolution.occupancy_samples;
  config.check_all_used();
  run.config_text = config.resolved_text();
  run.params = config.resolved_params();
  run.warnings = config.notes().warnings();
  return run;
}

}  // namespace fabric
