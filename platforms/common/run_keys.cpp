#include "platforms/common/run_keys.h"

namespace fabric {

config::ParamSpec threads_spec() {
  config::ParamSpec threads{"sim.threads", config::ParamType::integer, "0", "threads",
                            "worker threads that serve the fabric's partitions (each leaf with its CNAs, each spine) in each time window; 0: the cores available, less one for the database writer with --record frames. The database is the same for any number", 0, 32};
  threads.affects_results = false;
  return threads;
}

config::ParamSpec platform_spec(std::string platforms_text, std::vector<std::string> platform_names) {
  config::ParamSpec platform{"platform", config::ParamType::choice, "fabric", "",
                             "the system the run models: " + platforms_text};
  platform.choices = std::move(platform_names);
  return platform;
}

}  // namespace fabric
