#pragma once
// backplane.* keys: the 802.3x backplane switch and its end stations
// (platforms.md, E12).
#include "model/backplane/backplane_switch.h"
#include "model/backplane/end_station.h"
#include "model/config/config.h"
#include "model/link/link.h"

namespace fabric {

struct BackplaneConfig {
  BackplaneSwitchParams sw;
  EndStationParams station;
  LinkParams link;
  Picos warmup = 0;
};

void declare_backplane_params(config::ParamRegistry& registry);
// Throws ConfigError naming the key at fault: Low above High, a threshold
// above the memory, a memory smaller than the largest frame ...
BackplaneConfig read_backplane_params(const config::Config& config, uint32_t largest_frame_bytes);

}  // namespace fabric
