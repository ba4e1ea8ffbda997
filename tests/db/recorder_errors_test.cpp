// SqliteRecorder failures: files that are not ours, missing directories,
// locks, write errors on the writer thread, misuse; and that earlier runs
// survive all of them.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "db/sqlite_recorder.h"
#include "tests/db/db_test_support.h"

namespace fabric::db {
namespace {

using testing::query_int;
using testing::read_file;
using testing::run_sql;
using testing::TempDbPath;

RunInfo info() { return RunInfo{"E11", "cfg", "v", "frames", 7}; }

using testing::exec_other;

// Expects `f` to throw DbError whose message contains every one of `parts`.
template <typename F>
void expect_db_error(F f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no DbError";
  } catch (const DbError& e) {
    for (const std::string& part : parts) EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

void record_one_run(const std::string& path) {
  SqliteRecorder rec(path, true);
  rec.begin_run(info());
  rec.frame(FrameRecord{FrameId(1), FlowId(1), PortId(0), 100, 0, 0, 5});
  rec.finish("done", 100, 0.1);
}

TEST(SqliteRecorderErrors, TextFileIsNotAFabricsimDatabaseAndStaysUntouched) {
  TempDbPath db;
  const std::string content = "time,gbps\n0,12.5\n1,13.0\n";
  std::ofstream(db.str()) << content;
  expect_db_error([&] { SqliteRecorder rec(db.str(), true); }, {db.str(), "not a fabricsim database"});
  EXPECT_EQ(read_file(db.str()), content);
}

TEST(SqliteRecorderErrors, OtherToolsSqliteDatabaseIsRefused) {
  TempDbPath db;
  exec_other(db.str(), "CREATE TABLE customers(id, name); INSERT INTO customers VALUES (1, 'x');");
  expect_db_error([&] { SqliteRecorder rec(db.str(), true); }, {db.str(), "not a fabricsim database"});
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM sqlite_schema"), 1);  // no tables added
}

TEST(SqliteRecorderErrors, OtherSchemaVersionIsRefused) {
  TempDbPath db;
  record_one_run(db.str());
  exec_other(db.str(), "UPDATE meta SET value = '1' WHERE key = 'schema_version'");
  expect_db_error([&] { SqliteRecorder rec(db.str(), true); }, {db.str(), "schema version '1'"});
}

TEST(SqliteRecorderErrors, EmptyFileBecomesAFabricsimDatabase) {
  TempDbPath db;
  std::ofstream(db.str()).close();
  record_one_run(db.str());
  EXPECT_EQ(run_sql(db.str(), "SELECT value FROM meta WHERE key = 'schema'").text(0, "value"), "fabricsim");
}

TEST(SqliteRecorderErrors, MissingDirectoryIsNamed) {
  const std::string path = "/nonexistent-fabricsim-dir/sub/fabric.db";
  expect_db_error([&] { SqliteRecorder rec(path, true); }, {path, "does not exist"});
}

TEST(SqliteRecorderErrors, LockedDatabaseFailsBeforeTheRunWithinItsLimitAndEarlierRunsSurvive) {
  TempDbPath db;
  record_one_run(db.str());

  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(db.str().c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  const auto start = std::chrono::steady_clock::now();
  expect_db_error(
      [&] {
        SqliteRecorder rec(db.str(), true, 1.0);
        rec.begin_run(info());
      },
      {db.str(), "locked"});
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(waited, 1.0);
  EXPECT_LT(waited, 5.0);
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);

  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM runs"), 1);
  EXPECT_EQ(run_sql(db.str(), "SELECT status FROM runs").text(0, "status"), "done");
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames"), 1);
  record_one_run(db.str());  // and the file still takes new runs
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM runs WHERE status = 'done'"), 2);
}

TEST(SqliteRecorderErrors, DestructorWithoutFinishMarksTheRunFailed) {
  TempDbPath db;
  {
    SqliteRecorder rec(db.str(), true);
    rec.begin_run(info());
    rec.frame(FrameRecord{FrameId(1), FlowId(1), PortId(0), 100, 0, 0, 5});
  }
  auto runs = run_sql(db.str(), "SELECT status, sim_time_ps FROM runs");
  EXPECT_EQ(runs.text(0, "status"), "failed");
  EXPECT_TRUE(runs.is_null(0, "sim_time_ps"));
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames"), 1);  // buffered rows were written
}

TEST(SqliteRecorderErrors, WriterThreadErrorIsReportedByFinish) {
  TempDbPath db;
  SqliteRecorder rec(db.str(), true);
  rec.begin_run(info());
  exec_other(db.str(), "DROP TABLE samples");  // the writer's next insert there fails
  rec.frame(FrameRecord{FrameId(1), FlowId(1), PortId(0), 100, 0, 0, 5});
  rec.sample(10, rec.declare(EntityKind::leaf, "leaf0"), metric::cache_entries, 1.0);
  expect_db_error([&] { rec.finish("done", 100, 0.1); }, {db.str(), "samples", "not completely recorded"});
  EXPECT_EQ(run_sql(db.str(), "SELECT status FROM runs").text(0, "status"), "failed");
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames"), 0);  // the failed batch was rolled back
}

TEST(SqliteRecorderErrors, ALockTakenDuringARunIsWaitedForAndNothingIsLost) {
  TempDbPath db;
  record_one_run(db.str());
  SqliteRecorder rec(db.str(), true, 0.5);  // the limit holds only until the run has its row
  rec.begin_run(info());
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(db.str().c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  std::thread release([other] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  });
  rec.frame(FrameRecord{FrameId(1), FlowId(1), PortId(0), 100, 0, 0, 5});
  rec.finish("done", 100, 0.1);  // waits 2.5 s for the lock, past the 0.5 s before the run
  release.join();
  sqlite3_close(other);
  EXPECT_EQ(run_sql(db.str(), "SELECT status FROM runs WHERE run_id = 2").text(0, "status"), "done");
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames"), 2);
}

TEST(SqliteRecorderErrors, DuplicateKeysAreRefusedAtOnce) {
  TempDbPath db;
  SqliteRecorder rec(db.str(), true);
  rec.begin_run(info());
  rec.add_port(3, 0, "user", 0, 0, 0);
  expect_db_error([&] { rec.add_port(3, 0, "user", 0, 0, 0); }, {"port 3", "already recorded"});
  rec.add_flow(1, "f", "unicast", 0, 0, 1.0, 64, "64", 0, std::nullopt);
  expect_db_error([&] { rec.add_flow(1, "g", "unicast", 0, 0, 1.0, 64, "64", 0, std::nullopt); }, {"flow 1"});
  rec.add_flow_dest(1, 2);
  expect_db_error([&] { rec.add_flow_dest(1, 2); }, {"flow 1 destination 2"});
  const SubflowSummary s{FlowId(1), PortId(2), 1, 100, 5, 5, 5, 5, 5};
  rec.subflow_summary(s);
  expect_db_error([&] { rec.subflow_summary(s); }, {"flow 1 destination 2"});
  rec.finish("done", 100, 0.1);  // what was accepted is written
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM subflow_summary"), 1);
}

TEST(SqliteRecorderErrors, MisuseIsReported) {
  TempDbPath db;
  SqliteRecorder rec(db.str(), true);
  expect_db_error(
      [&] {
        rec.drop(DropRecord{FrameId(1), FlowId(1), PortId(0), -1, DropReason::other, 0});
      },
      {"before begin_run"});
  rec.begin_run(info());
  expect_db_error([&] { rec.begin_run(info()); }, {"only once"});
  expect_db_error([&] { rec.add_port(1, 0, "spine", 0, 0, 0); }, {"spine", "user, surrogate"});
  expect_db_error([&] { rec.add_flow(1, "f", "broadcast", 0, 0, 1.0, 64, "64", 0, std::nullopt); },
                  {"broadcast", "unicast, multicast"});
  expect_db_error([&] { rec.finish("ok", 0, 0.0); }, {"'ok'", "done, interrupted, failed"});
  rec.finish("done", 0, 0.0);
  expect_db_error([&] { rec.sample_named(0, EntityId(kFirstNamedEntity), "m", 1.0); }, {"after finish"});
  expect_db_error([&] { rec.declare(EntityKind::leaf, "leaf0"); }, {"after finish"});
}

// The logic_error `record` throws names every one of `parts`.
template <typename F>
void expect_model_error(F record, std::initializer_list<const char*> parts) {
  try {
    record();
    ADD_FAILURE() << "recorded";
  } catch (const std::logic_error& e) {
    for (const char* part : parts) EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

// Issue 40: every metric has one definition, with its unit, its kind and
// the kinds of entity it is for; anything else is a model error, not a row.
TEST(SqliteRecorderErrors, AnUndefinedOrMisusedMetricIsRefused) {
  TempDbPath db;
  SqliteRecorder rec(db.str(), true);
  const EntityId leaf = rec.declare(EntityKind::leaf, "leaf0");  // before begin_run: while the model is built
  rec.begin_run(info());
  rec.add_port(3, 0, "user", 0, 0, 0);
  const EntityId fabric = rec.declare(EntityKind::system, "fabric");
  expect_model_error([&] { rec.sample_named(0, leaf, "queue_depth", 1.0); },
                     {"metric 'queue_depth'", "a leaf", "not defined in model/recording/metric_catalog.h"});
  expect_model_error([&] { rec.total_named(leaf, "cache_entries", 1.0); }, {"'cache_entries'", "is a series"});
  expect_model_error([&] { rec.sample(0, fabric, metric::cache_entries, 1.0); }, {"defined for leaf only"});
  expect_model_error([&] { rec.sample(0, port_entity(PortId(4)), metric::ingress_bytes, 1.0); },
                     {"port the run has not added"});
  expect_model_error([&] { rec.event(0, EventKind::pause, EntityId(kFirstNamedEntity + 9), -1, 0); },
                     {"never declared"});
  expect_model_error([&] { rec.declare(EntityKind::cna, "leaf0"); }, {"'leaf0' declared as leaf and again as cna"});
  EXPECT_EQ(rec.declare(EntityKind::leaf, "leaf0"), leaf);  // the same name, the same entity
  rec.sample(0, leaf, metric::cache_entries, 1.0);
  rec.sample_named(0, port_entity(PortId(3)), "ingress_bytes", 1.0);  // by name, as a database's rows
  rec.total(fabric, metric::link_messages_of.member("grant"), 1.0);   // a family's member
  rec.total_named(fabric, "link_messages_ack", 1.0);
  rec.finish("done", 0, 0.0);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM samples"), 2);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM v_samples WHERE unit IS NOT NULL"), 2);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM v_run_totals WHERE unit = 'messages'"), 2);
}

}  // namespace
}  // namespace fabric::db
