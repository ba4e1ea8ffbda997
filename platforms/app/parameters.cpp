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
  r.declare({"sim.progress_slice", ParamType::duration, "10us", "ps", "simulated time between progress, interrupt and stall checks", 1e3, 1e12});
  r.declare({"record.sample_interval", ParamType::duration, "10us", "ps", "every this often, each user port's ingress and egress buffer occupancy goes into samples ('ingress_bytes', 'egress_bytes'); 0: never", 0, 1e12});
  declare_topology_params(r);
  declare_leaf_params(r);
  declare_spine_params(r);
  declare_cna_params(r);
  declare_link_params(r);
  traffic::declare_traffic_params(r);
  return r;
}

}  // namespace fabric
