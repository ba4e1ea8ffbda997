#pragma once
// The registry of every configuration key of the simulator: the keys every
// platform reads (sim.*, record.*, platform, the traffic), then each
// platform's own.
#include "model/config/config.h"

namespace fabric {

config::ParamRegistry build_registry();

}  // namespace fabric
