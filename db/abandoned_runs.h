#pragma once
// Runs left 'running' by a process that was stopped outright (SIGKILL, a
// crash, a power cut): found by the next process that opens the file, and
// marked 'interrupted'. Their rows are complete up to runs.sim_time_ps,
// which every committed batch advances.
#include <cstdint>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "model/core/ids.h"

namespace fabric::db {

struct AbandonedRun {
  int64_t run_id = 0;
  Picos reached = 0;  // simulated time its rows are complete to
  int64_t pid = 0;    // of the process that is gone
};

// Marks every 'running' run whose owner (db/run_owner.h) is gone as
// 'interrupted', in one transaction, and returns them. A run whose owner
// is alive, or runs on another machine, is left as it is.
std::vector<AbandonedRun> mark_abandoned_runs(sqlite3* db, const std::string& path);

// "run 3 was stopped outright at 412.5 us (process 1234 is gone); marked interrupted"
std::string describe(const AbandonedRun& run);

}  // namespace fabric::db
