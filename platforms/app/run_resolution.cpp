#include "platforms/app/run_resolution.h"

#include <filesystem>
#include <optional>

#include "platforms/app/platform_catalog.h"
#include "platforms/app/study_catalog.h"

namespace fabric {

namespace {

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

  const std::string platform_name = config.get_choice("platform");
  config.select_platform(platform_name);
  const Platform& platform = *find_platform(platform_name);
  run.platform = platform_name;
  run.seed = static_cast<uint64_t>(config.get_int("sim.seed"));
  run.threads = static_cast<int>(config.get_int("sim.threads"));
  run.loop.sim_time = config.get_duration("sim.time");
  run.loop.slice = config.get_duration("sim.progress_slice");
  run.loop.stall_timeout = config.get_duration("sim.stall_timeout");
  run.loop.sample_interval = config.get_duration("record.sample_interval");
  run.lock_wait_seconds = static_cast<double>(config.get_duration("record.lock_wait")) / 1e12;
  run.loop.progress = !cl.quiet;
  PlatformResolution resolution =
      platform.resolve(config, SharedRunKeys{run.seed, run.loop.sim_time, run.loop.sample_interval});
  run.setup = std::move(resolution.run);
  run.flows = std::move(resolution.flows);
  run.loop.recovery_wait = resolution.recovery_wait;
  run.loop.quiet_time = resolution.quiet_time;
  config.check_all_used();
  run.config_text = config.resolved_text();
  return run;
}

}  // namespace fabric
