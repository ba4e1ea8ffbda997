#include "platforms/app/run_loop.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>

#include "model/core/sim_time.h"
#include "model/core/stop_request.h"
#include "model/link/link_census.h"

namespace fabric {

namespace {

std::string format_duration(Picos ps) {
  char buf[32];
  if (ps >= 1'000'000'000) {
    std::snprintf(buf, sizeof buf, "%.3f ms", ps / 1e9);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f us", ps / 1e6);
  }
  return buf;
}

void show_progress(std::ostream& err, Picos now, Picos total, double wall, uint64_t frames) {
  const double fraction = total > 0 ? static_cast<double>(now) / total : 1;
  const double eta = fraction > 0 ? wall / fraction - wall : 0;
  char line[160];
  std::snprintf(line, sizeof line, "\r  sim %s / %s  %3.0f%%  wall %.1fs  ETA %.0fs  %.0fk frames/s   ",
                format_duration(now).c_str(), format_duration(total).c_str(), fraction * 100, wall, eta,
                wall > 0 ? frames / wall / 1e3 : 0.0);
  err << line << std::flush;
}

}  // namespace

RunResult run_simulation(PlatformTop& top, const RunLoopOptions& o, std::ostream& err) {
  using clock = std::chrono::steady_clock;
  const auto wall_start = clock::now();
  const bool progress = o.progress && isatty(STDERR_FILENO);
  RunResult result;
  LinkCensus::reset();
  uint64_t last_moved = 0;
  Picos last_movement = 0;
  auto last_display = wall_start;
  // Samples are taken between slices, when every partition of the fabric
  // stands at the same time: no model event, exact occupancy.
  Picos next_sample = o.sample_interval > 0 ? o.sample_interval : std::numeric_limits<Picos>::max();
  while (now_ps() < o.sim_time) {
    const Picos stop = std::min({now_ps() + o.slice, next_sample, o.sim_time});
    top.scheduler().run_until(stop);
    if (top.scheduler().stopped()) {  // a StopRequest, within the slice
      result.outcome = RunOutcome::interrupted;
      break;
    }
    const Picos now = now_ps();
    if (now >= next_sample) {
      top.sample_occupancy(now);
      next_sample += o.sample_interval;
    }
    const uint64_t moved = top.messages_moved();
    if (moved != last_moved) {
      last_moved = moved;
      last_movement = now;
    } else if (now - last_movement >= o.stall_timeout + o.quiet_time && top.backlog() > 0 &&
               (o.recovery_wait == 0 || now - last_movement >= o.stall_timeout + o.quiet_time + o.recovery_wait ||
                !top.awaiting_acks())) {
      result.outcome = RunOutcome::stalled;
      break;
    }
    if (o.on_slice && !o.on_slice(now)) {
      result.outcome = RunOutcome::recording_failed;
      break;
    }
    if (top.done()) break;        // a workload that ends has ended: the run is done
    if (StopRequest::raised()) {  // raised after the scheduler's last window
      result.outcome = RunOutcome::interrupted;
      break;
    }
    const auto wall_now = clock::now();
    if (progress && wall_now - last_display > std::chrono::milliseconds(250)) {
      show_progress(err, now, o.sim_time, std::chrono::duration<double>(wall_now - wall_start).count(),
                    top.frames_delivered());
      last_display = wall_now;
    }
  }
  result.simulated = top.scheduler().stopped() ? top.scheduler().stopped_at() : now_ps();
  result.wall_seconds = std::chrono::duration<double>(clock::now() - wall_start).count();
  if (progress) err << "\r" << std::string(90, ' ') << "\r" << std::flush;
  return result;
}

}  // namespace fabric
