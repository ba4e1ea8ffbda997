#include "platforms/common/sampling_guard.h"

#include <string>

namespace fabric {

int64_t check_sampling(const config::Config& c, Picos sim_time, Picos interval, int64_t max_samples,
                       int64_t per_instant) {
  if (interval <= 0) return 0;
  const int64_t max_instants = max_samples / per_instant;
  if (sim_time / interval <= max_instants) return sim_time / interval * per_instant;
  // The shortest interval whose instants fit, rounded up to a whole nanosecond.
  const Picos shortest = max_instants > 0 ? (sim_time / max_instants + 999) / 1000 * 1000 : sim_time;
  c.fail("record.sample_interval", "0 (never) or at least " + config::duration_text(shortest) + " for sim.time = " +
                                       config::duration_text(sim_time) + ": " + std::to_string(per_instant) +
                                       " occupancy samples per instant, at most record.max_samples (" +
                                       std::to_string(max_samples) + ") per run");
}

}  // namespace fabric
