#include "db/abandoned_runs.h"

#include <cstdio>

#include "db/db_error.h"
#include "db/run_owner.h"
#include "db/sqlite_handle.h"

namespace fabric::db {
namespace {

struct OwnedRun {
  RunOwner owner;
  AbandonedRun run;
};

std::string column_text(sqlite3_stmt* s, int i) {
  const unsigned char* text = sqlite3_column_text(s, i);
  return text ? reinterpret_cast<const char*>(text) : "";
}

std::vector<OwnedRun> running_runs(sqlite3* db, const std::string& path) {
  Statement s = prepare(db, path,
                        "SELECT o.run_id, o.host, o.boot_id, o.pid, o.start_ticks, coalesce(r.sim_time_ps, 0) "
                        "FROM run_owners AS o JOIN runs AS r USING (run_id) WHERE r.status = 'running' "
                        "ORDER BY o.run_id");
  std::vector<OwnedRun> runs;
  int rc;
  while ((rc = sqlite3_step(s.get())) == SQLITE_ROW) {
    OwnedRun r;
    r.run.run_id = sqlite3_column_int64(s.get(), 0);
    r.owner = RunOwner{column_text(s.get(), 1), column_text(s.get(), 2), sqlite3_column_int64(s.get(), 3),
                       sqlite3_column_int64(s.get(), 4)};
    r.run.pid = r.owner.pid;
    r.run.reached = sqlite3_column_int64(s.get(), 5);
    runs.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) throw_db_error(path, "looking for runs stopped outright", db, rc);
  return runs;
}

void mark_interrupted(sqlite3* db, const std::string& path, const std::vector<AbandonedRun>& runs) {
  const char* action = "marking runs stopped outright as interrupted";
  in_write_transaction(db, path, action, [&] {
    Statement update =
        prepare(db, path, "UPDATE runs SET status = 'interrupted' WHERE run_id = ?1 AND status = 'running'");
    Statement forget = prepare(db, path, "DELETE FROM run_owners WHERE run_id = ?1");
    for (const AbandonedRun& run : runs) {
      sqlite3_bind_int64(update.get(), 1, run.run_id);
      step_done(db, update.get(), path, action);
      sqlite3_bind_int64(forget.get(), 1, run.run_id);
      step_done(db, forget.get(), path, action);
    }
  });
}

}  // namespace

std::vector<AbandonedRun> mark_abandoned_runs(sqlite3* db, const std::string& path) {
  std::vector<AbandonedRun> gone;
  for (const OwnedRun& r : running_runs(db, path))
    if (owner_state(r.owner) == OwnerState::gone) gone.push_back(r.run);
  if (!gone.empty()) mark_interrupted(db, path, gone);
  return gone;
}

std::string describe(const AbandonedRun& run) {
  char text[160];
  std::snprintf(
      text, sizeof text, "run %lld was stopped outright at %.3f us (process %lld is gone); marked interrupted",
      static_cast<long long>(run.run_id), static_cast<double>(run.reached) / 1e6, static_cast<long long>(run.pid));
  return text;
}

}  // namespace fabric::db
