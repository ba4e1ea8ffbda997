#include "platforms/common/run_keys.h"

namespace fabric {

config::ParamSpec threads_spec() {
  config::ParamSpec threads{"sim.threads",
                            config::ParamType::integer,
                            "0",
                            "threads",
                            "worker threads that serve the fabric's partitions (each leaf with its CNAs, each spine) "
                            "in each time window; 0: the cores available, less one for the database writer with "
                            "--record frames. The database is the same for any number",
                            0,
                            32};
  threads.affects_results = false;
  return threads;
}

config::ParamSpec max_db_bytes_spec() {
  config::ParamSpec max_bytes{"record.max_db_bytes",
                              config::ParamType::bytes,
                              "4GB",
                              "B",
                              "guard: a run whose rows are estimated (from the offered load, sim.time and --record) to "
                              "add more than this to the database is refused before it starts, as is one that would "
                              "not fit in the free space of the database's disk; raise it knowingly",
                              1,
                              1e15};
  max_bytes.affects_results = false;
  return max_bytes;
}

config::ParamSpec platform_spec(std::string platforms_text, std::vector<std::string> platform_names) {
  config::ParamSpec platform{"platform", config::ParamType::choice, "fabric", "",
                             "the system the run models: " + platforms_text};
  platform.choices = std::move(platform_names);
  return platform;
}

}  // namespace fabric
