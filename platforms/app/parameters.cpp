#include "platforms/app/parameters.h"

#include "platforms/app/platform_catalog.h"
#include "traffic/traffic_params.h"

namespace fabric {

namespace {

std::string platform_list() {
  std::string s;
  for (const Platform* p : all_platforms()) s += (s.empty() ? "" : "; ") + p->name() + " (" + p->title() + ")";
  return s;
}

}  // namespace

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
  r.declare({"sim.stall_timeout", ParamType::duration, "100us", "ps", "report a stall when nothing moves for this long (plus leaf.e2e.timeout while end-to-end retransmission is on) while traffic is pending", 1e6, 1e15});
  r.declare({"record.sample_interval", ParamType::duration, "10us", "ps", "every this often, buffer occupancy goes into samples (fabric: each user port's 'ingress_bytes' and 'egress_bytes'; backplane: the switch's 'memory_bytes'); 0: never", 0, 1e12});
  r.declare({"record.max_samples", ParamType::integer, "200000000", "samples", "guard: at most this many occupancy samples per run (sim.time / record.sample_interval x 2 x ports; ~40 B each on disk); raise it knowingly", 1, 1e12});
  r.declare({"record.lock_wait", ParamType::duration, "60s", "ps", "before its run starts, how long fabricsim waits for another process's write lock on the database before it gives up (exit 2); once the run has started it waits for ever rather than lose what it simulated", 0, 1e16});
  {
    config::ParamSpec platform{"platform", ParamType::choice, "fabric", "", "the system the run models: " +
                                                                              platform_list()};
    platform.choices = platform_names();
    r.declare(platform);
  }
  traffic::declare_traffic_params(r);
  for (const Platform* p : all_platforms()) {
    config::ParamRegistry::OwnedKeys owned(r, p->name());
    p->declare_params(r);
  }
  return r;
}

}  // namespace fabric
