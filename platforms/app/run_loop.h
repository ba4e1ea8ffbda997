#pragma once
// Drives sc_start in slices of simulated time: occupancy samples, progress
// display, a StopRequest (model/core/stop_request.h) within one time window
// of the model, and stall detection (nothing moved on any link
// for the stall timeout while frames or copies are held somewhere).
#include <functional>
#include <ostream>

#include "model/core/ids.h"
#include "platforms/common/platform.h"

namespace fabric {

// recording_failed: the database could not take the run's rows (a full
// disk), so the run stopped rather than simulate what it cannot keep.
enum class RunOutcome { done, interrupted, stalled, recording_failed };

struct RunLoopOptions {
  Picos sim_time = 0;
  Picos slice = 0;
  Picos stall_timeout = 0;
  Picos quiet_time = 0;  // added to stall_timeout (PlatformResolution::quiet_time)
  // While copies await their end-to-end ACK, a lost packet may leave the
  // fabric waiting this long for a retransmission timer: no stall until
  // nothing has moved for the stall timeout beyond it.
  Picos recovery_wait = 0;
  Picos sample_interval = 0;  // buffer occupancy into samples every this often; 0: never
  bool progress = false;
  // Called after each slice with the simulated time everything before which
  // is done; false stops the run (RunOutcome::recording_failed).
  std::function<bool(Picos)> on_slice;
};

struct RunResult {
  RunOutcome outcome = RunOutcome::done;
  Picos simulated = 0;
  double wall_seconds = 0;
};

RunResult run_simulation(PlatformTop& top, const RunLoopOptions& options, std::ostream& err);

}  // namespace fabric
