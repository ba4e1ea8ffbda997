#pragma once
// SIGINT, SIGTERM and SIGHUP, handled alike at any moment of a run:
//  - before the run has its row in the database: exit at once, nothing written;
//  - while it runs: a StopRequest, so the model stops within one time window
//    and the run is completed as 'interrupted' with what it reached;
//  - a second signal: exit at once; the next fabricsim that opens the
//    database marks the run interrupted (its rows stay complete up to the
//    last committed batch).
// SIGPIPE is ignored: a closed output pipe must not kill a run. SIGXFSZ is
// ignored: a write past the file size limit (ulimit -f) fails with EFBIG,
// which the recorder reports, and the run ends as on a full disk.
namespace fabric {

enum class RunPhase { starting, running };

void install_stop_signals();
void set_run_phase(RunPhase phase);
// The signal that asked to stop, or 0.
int stop_signal();
// The exit status for a run stopped by a signal: 128 + its number.
int stopped_exit_status();

}  // namespace fabric
