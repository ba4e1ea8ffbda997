#pragma once
// The registry of every configuration key of the simulator: the keys every
// platform reads (sim.*, record.*, platform, the traffic), then each
// platform's own.
#include "config/config.h"
#include "platforms/common/run_keys.h"

namespace fabric {

config::ParamRegistry build_registry();
// The keys every platform reads: declared, read or with their defaults, as
// the ParamScope around the call says (config/param.h).
RunKeys run_keys();

}  // namespace fabric
