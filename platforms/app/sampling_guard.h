#pragma once
// The guard on occupancy sampling: record.sample_interval so short that the
// run would write more occupancy samples than record.max_samples is refused
// before anything runs, with the shortest interval that fits.
#include "model/config/config.h"
#include "model/core/geometry.h"

namespace fabric {

// Occupancy samples one sampling instant writes: ingress and egress bytes
// of every port of every leaf, surrogate ports included.
int64_t occupancy_samples_per_instant(const Geometry& g);

// Throws ConfigError naming record.sample_interval when
// sim_time / interval * per_instant exceeds record.max_samples.
void check_sampling(const config::Config& c, Picos sim_time, Picos interval, int64_t per_instant);

}  // namespace fabric
