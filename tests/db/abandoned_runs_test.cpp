// A run whose process is gone is marked interrupted by the next recorder
// that opens the file; a run whose process lives, or runs on another
// machine, is left alone.
#include <gtest/gtest.h>

#include "db/run_owner.h"
#include "db/sqlite_recorder.h"
#include "tests/db/db_test_support.h"

namespace fabric::db {
namespace {

using testing::exec_other;
using testing::query_int;
using testing::run_sql;
using testing::TempDbPath;

// Run `run_id`, 'running' since it reached `reached`, owned by `owner`.
void add_running_run(const std::string& db, int run_id, const RunOwner& owner, int64_t reached) {
  const std::string id = std::to_string(run_id);
  exec_other(db,
             "INSERT INTO runs(run_id, study, config, seed, sim_time_ps, model_version, started_at, status, "
             "log_level) VALUES (" +
                 id + ", 'E11', '', 1, " + std::to_string(reached) +
                 ", 'v', '2026-01-01T00:00:00Z', 'running', 'frames');"
                 "INSERT INTO run_owners VALUES (" +
                 id + ", '" + owner.host + "', '" + owner.boot_id + "', " + std::to_string(owner.pid) + ", " +
                 std::to_string(owner.start_ticks) + ")");
}

TEST(RunOwner, ThisProcessIsAliveAndAnImpostorIsGone) {
  const RunOwner me = this_process();
  EXPECT_FALSE(me.host.empty());
  EXPECT_FALSE(me.boot_id.empty());
  EXPECT_GT(me.start_ticks, 0);
  EXPECT_EQ(owner_state(me), OwnerState::alive);
  RunOwner reused_pid = me;
  reused_pid.start_ticks -= 1;  // the same process id, started at another time
  EXPECT_EQ(owner_state(reused_pid), OwnerState::gone);
  RunOwner rebooted = me;
  rebooted.boot_id = "another-boot";
  EXPECT_EQ(owner_state(rebooted), OwnerState::gone);
  RunOwner elsewhere = me;
  elsewhere.host = me.host + "-other";
  EXPECT_EQ(owner_state(elsewhere), OwnerState::unknown);
}

TEST(AbandonedRuns, OnlyRunsOfProcessesThatAreGoneAreMarkedInterrupted) {
  TempDbPath db;
  { SqliteRecorder create(db.str(), true); }
  const RunOwner me = this_process();
  RunOwner gone = me;
  gone.start_ticks -= 1;
  RunOwner elsewhere = me;
  elsewhere.host += "-other";
  add_running_run(db.str(), 1, gone, 412'500'000);
  add_running_run(db.str(), 2, me, 1000);
  add_running_run(db.str(), 3, elsewhere, 2000);

  SqliteRecorder rec(db.str(), true);
  ASSERT_EQ(rec.abandoned_runs().size(), 1u);
  EXPECT_EQ(rec.abandoned_runs()[0].run_id, 1);
  EXPECT_EQ(rec.abandoned_runs()[0].reached, 412'500'000);
  EXPECT_EQ(describe(rec.abandoned_runs()[0]), "run 1 was stopped outright at 412.500 us (process " +
                                                   std::to_string(me.pid) + " is gone); marked interrupted");
  auto runs = run_sql(db.str(), "SELECT run_id, status, sim_time_ps FROM runs ORDER BY run_id");
  EXPECT_EQ(runs.text(0, "status"), "interrupted");
  EXPECT_EQ(runs.integer(0, "sim_time_ps"), 412'500'000);
  EXPECT_EQ(runs.text(1, "status"), "running");
  EXPECT_EQ(runs.text(2, "status"), "running");
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM run_owners"), 2);
  SqliteRecorder again(db.str(), true);  // marking twice changes nothing
  EXPECT_TRUE(again.abandoned_runs().empty());
}

}  // namespace
}  // namespace fabric::db
