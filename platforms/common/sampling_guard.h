#pragma once
// The guard on occupancy sampling: record.sample_interval so short that the
// run would write more occupancy samples than record.max_samples is refused
// before anything runs, with the shortest interval that fits.
#include "config/config.h"

namespace fabric {

// Throws ConfigError naming record.sample_interval when
// sim_time / interval * per_instant (the samples one sampling instant
// writes) exceeds record.max_samples; else returns that number.
int64_t check_sampling(const config::Config& c, Picos sim_time, Picos interval, int64_t max_samples,
                       int64_t per_instant);

}  // namespace fabric
