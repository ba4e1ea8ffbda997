#pragma once
// A run's configuration resolved from the command line: the study file,
// --config files, --set, --time and --seed read into the fabric's
// platform's parameters and flows, every value checked and every consistency rule
// applied, before anything is written. Also used for each point of a
// sweep (sweep_points.h).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "platforms/app/command_line.h"
#include "platforms/app/run_loop.h"
#include "platforms/common/platform.h"
#include "traffic/flow_spec.h"

namespace fabric {

struct ResolvedRun {
  std::string study;
  std::string platform;
  std::unique_ptr<PlatformRun> setup;  // the platform's part
  std::vector<traffic::FlowSpec> flows;
  uint64_t seed = 1;
  RunLoopOptions loop;
  std::string config_text;
  double lock_wait_seconds = 0;
  int64_t max_db_bytes = 0;                   // record.max_db_bytes
  int64_t occupancy_samples = 0;              // the samples the run writes (PlatformResolution)
  int threads = 0;                            // sim.threads; 0: chosen from the cores
  uint64_t max_sweep_points = 0;              // sweep.max_points (a sweep's, for --points)
  std::vector<config::ResolvedParam> params;  // every key, with its source (run_params)
  std::vector<config::CheckResult> warnings;  // the checks that did not hold (run_warnings)
};

// Throws config::ConfigError (locate it with config.locate()).
ResolvedRun resolve(const CommandLine& cl, config::Config& config);

}  // namespace fabric
