#include "platforms/app/parameters.h"

#include "model/cna/cna_params.h"
#include "model/leaf/leaf_params.h"
#include "model/link/link_params.h"
#include "model/spine/spine_params.h"
#include "platforms/fabric/topology_params.h"
#include "traffic/traffic_params.h"

namespace fabric {

config::ParamRegistry build_registry() {
  using config::ParamType;
  config::ParamRegistry r;
  r.declare({"sim.time", ParamType::duration, "1ms", "ps", "simulated time of the run (--time)", 1, double(kLatestConfiguredTime)});
  r.declare({"sim.seed", ParamType::integer, "1", "", "random seed (--seed); same seed and configuration, same database", 0, 9.2e18});
  {
    config::ParamSpec threads{"sim.threads", ParamType::integer, "0", "threads",
                              "worker threads that serve the fabric's partitions (each leaf with its CNAs, each spine) in each time window; 0: the cores available, less one for the database writer with --log-level frames. The database is the same for any number", 0, 32};
    threads.affects_results = false;
    r.declare(threads);
  }
  r.declare({"sim.progress_slice", ParamType::duration, "10us", "ps", "simulated time between progress, interrupt and stall checks", 1e3, 1e12});
  r.declare({"record.sample_interval", ParamType::duration, "10us", "ps", "every this often, each user port's ingress and egress buffer occupancy goes into samples ('ingress_bytes', 'egress_bytes'); 0: never", 0, 1e12});
  r.declare({"record.max_samples", ParamType::integer, "200000000", "samples", "guard: at most this many occupancy samples per run (sim.time / record.sample_interval x 2 x ports; ~40 B each on disk); raise it knowingly", 1, 1e12});
  r.declare({"record.lock_wait", ParamType::duration, "60s", "ps", "before its run starts, how long fabricsim waits for another process's write lock on the database before it gives up (exit 2); once the run has started it waits for ever rather than lose what it simulated", 0, 1e16});
  declare_topology_params(r);
  declare_leaf_params(r);
  declare_spine_params(r);
  declare_cna_params(r);
  declare_link_params(r);
  traffic::declare_traffic_params(r);
  return r;
}

}  // namespace fabric
