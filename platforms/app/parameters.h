#pragma once
// The registry of every configuration key of the simulator, and sim.* keys.
#include "model/config/config.h"

namespace fabric {

config::ParamRegistry build_registry();

}  // namespace fabric
