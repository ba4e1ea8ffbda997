// Closed-loop jobs in the database: JobRecord and JobOperationRecord
// through a real SqliteRecorder into jobs, job_ranks and job_operations,
// every column and NULL read back with SQL, the views v_job_steps and
// v_job_ranks and the cookbook's job_figures.sql on a hand-made case, the
// refusals, interrupted and older files, and 200,000 operations.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "db/sqlite_recorder.h"
#include "tests/db/db_test_support.h"

namespace fabric::db {
namespace {

using testing::query_int;
using testing::run_sql;
using testing::TempDbPath;

RunInfo info(const char* log_level = "frames") { return RunInfo{"jobs", "cfg", "v", log_level, 5}; }

constexpr uint8_t kSend = 0, kRecv = 1, kCalc = 2;

JobOperationRecord op(uint32_t job, int32_t rank, uint32_t index, uint8_t kind, int32_t peer, int32_t group,
                      uint64_t bytes, uint32_t step, uint32_t tag, Picos start, Picos end) {
  return JobOperationRecord{job, rank, index, kind, peer, group, bytes, step, tag, start, end};
}

// Job 0 "ar": a two-rank ring all-reduce at ports 3 and 7, from 1000 ps to
// 9000 ps, in two steps:
//   step 0: 4 ops, sends of 500 + 500 B, from 1000 to 3500 ps (2500 ps);
//   step 1: 4 ops, a 500 B send and a 250 B multicast send (group 4), from
//           3000 to 9000 ps (6000 ps; its recv was posted at 1000 ps);
//   rank 0 ends at 6000 ps (5000 after the start), rank 1 at 9000 (8000).
// Job 1 "g": a GOAL schedule at ports 5 and 6 from 100 ps that did not
// finish: rank 0 ended at 700 ps, rank 1's recv never completed and its
// calc never started.
JobRecord job0() {
  JobRecord j;
  j.job = 0;
  j.name = "ar";
  j.collective = "allreduce";
  j.algorithm = "ring";
  j.ports = {PortId(3), PortId(7)};
  j.rank_ends = {6000, 9000};
  j.bytes = 1000;
  j.iterations = 1;
  j.steps = 2;
  j.operations = 8;
  j.completed = 8;
  j.start = 1000;
  j.end = 9000;
  j.algbw_gbps = 1.0;  // as the model gives them: the recorder computes nothing
  j.busbw_gbps = 1.5;
  return j;
}

JobRecord job1() {
  JobRecord j;
  j.job = 1;
  j.name = "g";
  j.collective = "goal";
  j.algorithm = "trace.goal";
  j.ports = {PortId(5), PortId(6)};
  j.rank_ends = {700, -1};
  j.bytes = -1;
  j.iterations = 1;
  j.steps = 1;
  j.operations = 4;
  j.completed = 2;
  j.start = 100;
  // end, algbw_gbps, busbw_gbps: -1, none
  return j;
}

void record_hand_made_jobs(SqliteRecorder& rec) {
  rec.job(job0());
  rec.job(job1());
  rec.job_operation(op(0, 0, 0, kSend, 1, -1, 500, 0, 0, 1000, 3000));
  rec.job_operation(op(0, 0, 1, kRecv, 1, -1, 500, 0, 0, 1000, 3500));
  rec.job_operation(op(0, 0, 2, kCalc, -1, -1, 0, 1, 1, 3500, 4000));
  rec.job_operation(op(0, 0, 3, kSend, 1, -1, 500, 1, 1, 4000, 6000));
  rec.job_operation(op(0, 1, 0, kSend, 0, -1, 500, 0, 0, 1200, 3200));
  rec.job_operation(op(0, 1, 1, kRecv, 0, -1, 500, 0, 0, 1000, 3000));
  rec.job_operation(op(0, 1, 2, kSend, -1, 4, 250, 1, 1, 3000, 5000));
  rec.job_operation(op(0, 1, 3, kRecv, 0, -1, 500, 1, 1, 1000, 9000));  // posted at the job's start
  rec.job_operation(op(1, 0, 0, kCalc, -1, -1, 0, 0, 0, 100, 200));
  rec.job_operation(op(1, 0, 1, kSend, 1, -1, 64, 0, 7, 200, 700));
  rec.job_operation(op(1, 1, 0, kRecv, 0, -1, 64, 0, 7, 100, -1));
  rec.job_operation(op(1, 1, 1, kCalc, -1, -1, 0, 0, 8, -1, -1));
}

void write_hand_made_run(const std::string& path, const std::string& status = "done",
                         const char* log_level = "frames") {
  SqliteRecorder rec(path, std::string(log_level) == "frames");
  rec.begin_run(info(log_level));
  record_hand_made_jobs(rec);
  rec.finish(status, 10'000, 0.1);
}

// Expects `f` to throw E whose message contains every one of `parts`.
template <typename E, typename F>
void expect_error(F f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "nothing thrown";
  } catch (const E& e) {
    for (const std::string& part : parts) EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(JobTables, EveryColumnOfJobsRoundTripsWithItsNulls) {
  TempDbPath db;
  write_hand_made_run(db.str());
  auto j = run_sql(db.str(), "SELECT * FROM jobs ORDER BY job_id");
  ASSERT_EQ(j.rows.size(), 2u);
  EXPECT_EQ(j.columns, (std::vector<std::string>{"run_id", "job_id", "name", "collective", "algorithm", "ranks",
                                                 "bytes", "iterations", "steps", "operations", "completed_operations",
                                                 "start_ps", "end_ps", "time_ps", "algbw_gbps", "busbw_gbps"}));
  EXPECT_EQ(j.integer(0, "run_id"), 1);
  EXPECT_EQ(j.integer(0, "job_id"), 0);
  EXPECT_EQ(j.text(0, "name"), "ar");
  EXPECT_EQ(j.text(0, "collective"), "allreduce");
  EXPECT_EQ(j.text(0, "algorithm"), "ring");
  EXPECT_EQ(j.integer(0, "ranks"), 2);
  EXPECT_EQ(j.integer(0, "bytes"), 1000);
  EXPECT_EQ(j.integer(0, "iterations"), 1);
  EXPECT_EQ(j.integer(0, "steps"), 2);
  EXPECT_EQ(j.integer(0, "operations"), 8);
  EXPECT_EQ(j.integer(0, "completed_operations"), 8);
  EXPECT_EQ(j.integer(0, "start_ps"), 1000);
  EXPECT_EQ(j.integer(0, "end_ps"), 9000);
  EXPECT_EQ(j.integer(0, "time_ps"), 8000);
  EXPECT_DOUBLE_EQ(j.real(0, "algbw_gbps"), 1.0);
  EXPECT_DOUBLE_EQ(j.real(0, "busbw_gbps"), 1.5);
  // The unfinished GOAL job: no size, no end, no time, no bandwidths.
  EXPECT_EQ(j.integer(1, "job_id"), 1);
  EXPECT_EQ(j.text(1, "collective"), "goal");
  EXPECT_EQ(j.text(1, "algorithm"), "trace.goal");
  EXPECT_EQ(j.integer(1, "operations"), 4);
  EXPECT_EQ(j.integer(1, "completed_operations"), 2);
  EXPECT_EQ(j.integer(1, "start_ps"), 100);
  for (const char* column : {"bytes", "end_ps", "time_ps", "algbw_gbps", "busbw_gbps"})
    EXPECT_TRUE(j.is_null(1, column)) << column;
}

TEST(JobTables, JobRanksComeFromPortsAndRankEnds) {
  TempDbPath db;
  write_hand_made_run(db.str());
  auto r = run_sql(db.str(), "SELECT * FROM job_ranks ORDER BY job_id, rank");
  EXPECT_EQ(r.columns, (std::vector<std::string>{"run_id", "job_id", "rank", "port_id", "end_ps"}));
  ASSERT_EQ(r.rows.size(), 4u);
  const struct {
    int64_t job, rank, port, end;
  } expected[] = {{0, 0, 3, 6000}, {0, 1, 7, 9000}, {1, 0, 5, 700}, {1, 1, 6, -1}};
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.integer(i, "run_id"), 1);
    EXPECT_EQ(r.integer(i, "job_id"), expected[i].job);
    EXPECT_EQ(r.integer(i, "rank"), expected[i].rank);
    EXPECT_EQ(r.integer(i, "port_id"), expected[i].port);
    if (expected[i].end < 0) {
      EXPECT_TRUE(r.is_null(i, "end_ps"));
    } else {
      EXPECT_EQ(r.integer(i, "end_ps"), expected[i].end);
    }
  }
}

TEST(JobTables, EveryColumnOfJobOperationsRoundTripsWithItsNulls) {
  TempDbPath db;
  write_hand_made_run(db.str());
  auto o = run_sql(db.str(), "SELECT * FROM job_operations ORDER BY rowid");
  EXPECT_EQ(o.columns, (std::vector<std::string>{"run_id", "job_id", "rank", "op", "kind", "peer", "multicast_group",
                                                 "bytes", "step", "tag", "start_ps", "end_ps"}));
  ASSERT_EQ(o.rows.size(), 12u);
  // Row 6: job 0, rank 1, op 2, a multicast send: no peer, group 4.
  EXPECT_EQ(o.integer(6, "run_id"), 1);
  EXPECT_EQ(o.integer(6, "job_id"), 0);
  EXPECT_EQ(o.integer(6, "rank"), 1);
  EXPECT_EQ(o.integer(6, "op"), 2);
  EXPECT_EQ(o.text(6, "kind"), "send");
  EXPECT_TRUE(o.is_null(6, "peer"));
  EXPECT_EQ(o.integer(6, "multicast_group"), 4);
  EXPECT_EQ(o.integer(6, "bytes"), 250);
  EXPECT_EQ(o.integer(6, "step"), 1);
  EXPECT_EQ(o.integer(6, "tag"), 1);
  EXPECT_EQ(o.integer(6, "start_ps"), 3000);
  EXPECT_EQ(o.integer(6, "end_ps"), 5000);
  // Row 1: a recv from rank 1.
  EXPECT_EQ(o.text(1, "kind"), "recv");
  EXPECT_EQ(o.integer(1, "peer"), 1);
  EXPECT_TRUE(o.is_null(1, "multicast_group"));
  EXPECT_EQ(o.integer(1, "end_ps"), 3500);
  // Row 2: a calc: no peer, no group, no bytes.
  EXPECT_EQ(o.text(2, "kind"), "calc");
  EXPECT_TRUE(o.is_null(2, "peer"));
  EXPECT_TRUE(o.is_null(2, "multicast_group"));
  EXPECT_EQ(o.integer(2, "bytes"), 0);
  // Job 1: a recv started but never completed, a calc never started.
  EXPECT_EQ(o.integer(9, "tag"), 7);
  EXPECT_EQ(o.integer(10, "start_ps"), 100);
  EXPECT_TRUE(o.is_null(10, "end_ps"));
  EXPECT_TRUE(o.is_null(11, "start_ps"));
  EXPECT_TRUE(o.is_null(11, "end_ps"));
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM job_operations WHERE kind = 'send'"), 5);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM job_operations WHERE kind = 'recv'"), 4);
}

TEST(JobTables, StepsViewGivesTheHandComputedSteps) {
  TempDbPath db;
  write_hand_made_run(db.str());
  auto s = run_sql(db.str(), "SELECT * FROM v_job_steps ORDER BY job_id, step");
  EXPECT_EQ(s.columns, (std::vector<std::string>{"run_id", "job_id", "step", "operations", "completed_operations",
                                                 "bytes_sent", "first_start_ps", "last_end_ps", "duration_ps"}));
  ASSERT_EQ(s.rows.size(), 3u);
  // Job 0, step 0: two 500 B sends (recvs are not counted), 1000 to 3500 ps.
  EXPECT_EQ(s.integer(0, "step"), 0);
  EXPECT_EQ(s.integer(0, "operations"), 4);
  EXPECT_EQ(s.integer(0, "completed_operations"), 4);
  EXPECT_EQ(s.integer(0, "bytes_sent"), 1000);
  EXPECT_EQ(s.integer(0, "first_start_ps"), 1000);
  EXPECT_EQ(s.integer(0, "last_end_ps"), 3500);
  EXPECT_EQ(s.integer(0, "duration_ps"), 2500);
  // Step 1: 500 B unicast + 250 B multicast (counted once), from its first
  // send at 3000 ps (not its recv, posted at 1000) to 9000 ps.
  EXPECT_EQ(s.integer(1, "step"), 1);
  EXPECT_EQ(s.integer(1, "operations"), 4);
  EXPECT_EQ(s.integer(1, "bytes_sent"), 750);
  EXPECT_EQ(s.integer(1, "first_start_ps"), 3000);
  EXPECT_EQ(s.integer(1, "last_end_ps"), 9000);
  EXPECT_EQ(s.integer(1, "duration_ps"), 6000);
  // Job 1's step 0 did not complete: no last end, no duration (not 700 - 100).
  EXPECT_EQ(s.integer(2, "job_id"), 1);
  EXPECT_EQ(s.integer(2, "operations"), 4);
  EXPECT_EQ(s.integer(2, "completed_operations"), 2);
  EXPECT_EQ(s.integer(2, "bytes_sent"), 64);
  EXPECT_EQ(s.integer(2, "first_start_ps"), 100);
  EXPECT_TRUE(s.is_null(2, "last_end_ps"));
  EXPECT_TRUE(s.is_null(2, "duration_ps"));
}

// A step of recvs alone starts at its first recv's start.
TEST(JobTables, AStepOfRecvsOnlyStartsAtItsFirstRecv) {
  TempDbPath db;
  {
    SqliteRecorder rec(db.str(), true);
    rec.begin_run(info());
    rec.job_operation(op(0, 0, 0, kSend, 1, -1, 10, 0, 0, 100, 200));
    rec.job_operation(op(0, 1, 0, kRecv, 0, -1, 10, 0, 0, 0, 250));
    rec.job_operation(op(0, 0, 1, kRecv, 1, -1, 10, 1, 1, 50, 300));
    rec.job_operation(op(0, 1, 1, kRecv, 0, -1, 10, 1, 1, 20, 400));
    rec.finish("done", 1000, 0.1);
  }
  auto s = run_sql(db.str(), "SELECT step, first_start_ps, last_end_ps, duration_ps FROM v_job_steps ORDER BY step");
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(s.integer(0, "first_start_ps"), 100);
  EXPECT_EQ(s.integer(0, "duration_ps"), 150);
  EXPECT_EQ(s.integer(1, "first_start_ps"), 20);
  EXPECT_EQ(s.integer(1, "last_end_ps"), 400);
  EXPECT_EQ(s.integer(1, "duration_ps"), 380);
}

TEST(JobTables, RanksViewGivesEachRanksTimeAndTraffic) {
  TempDbPath db;
  write_hand_made_run(db.str());
  auto r = run_sql(db.str(), "SELECT * FROM v_job_ranks ORDER BY job_id, rank");
  EXPECT_EQ(r.columns,
            (std::vector<std::string>{"run_id", "job_id", "rank", "port_id", "operations", "completed_operations",
                                      "bytes_sent", "bytes_received", "end_ps", "time_ps"}));
  ASSERT_EQ(r.rows.size(), 4u);
  const struct {
    int64_t port, ops, completed, sent, received, end, time;
  } expected[] = {{3, 4, 4, 1000, 500, 6000, 5000},
                  {7, 4, 4, 750, 1000, 9000, 8000},
                  {5, 2, 2, 64, 0, 700, 600},
                  {6, 2, 0, 0, 64, -1, -1}};
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.integer(i, "port_id"), expected[i].port);
    EXPECT_EQ(r.integer(i, "operations"), expected[i].ops);
    EXPECT_EQ(r.integer(i, "completed_operations"), expected[i].completed);
    EXPECT_EQ(r.integer(i, "bytes_sent"), expected[i].sent);
    EXPECT_EQ(r.integer(i, "bytes_received"), expected[i].received);
    if (expected[i].end < 0) {
      EXPECT_TRUE(r.is_null(i, "end_ps"));
      EXPECT_TRUE(r.is_null(i, "time_ps"));
    } else {
      EXPECT_EQ(r.integer(i, "end_ps"), expected[i].end);
      EXPECT_EQ(r.integer(i, "time_ps"), expected[i].time);
    }
  }
  // The slowest rank's time is the job's.
  EXPECT_EQ(query_int(db.str(), "SELECT max(time_ps) FROM v_job_ranks WHERE job_id = 0"),
            query_int(db.str(), "SELECT time_ps FROM jobs WHERE job_id = 0"));
}

TEST(JobTables, CookbookJobFiguresGiveTheSlowestStepAndRank) {
  const auto dir = testing::source_dir();
  if (!dir) GTEST_SKIP() << "db/queries not found; set FABRICSIM_SOURCE_DIR";
  TempDbPath db;
  write_hand_made_run(db.str());
  {  // a second run with other jobs, which run 1's figures must not see
    SqliteRecorder rec(db.str(), true);
    rec.begin_run(info());
    JobRecord other = job0();
    other.rank_ends = {100, 200000};
    other.end = 200000;
    rec.job(other);
    rec.job_operation(op(0, 0, 0, kSend, 1, -1, 500, 5, 0, 0, 200000));
    rec.finish("done", 300000, 0.1);
  }
  const std::string sql = testing::read_file(*dir / "db" / "queries" / "job_figures.sql");
  auto f = run_sql(db.str(), sql, {{"@run", int64_t{1}}});
  EXPECT_EQ(f.columns,
            (std::vector<std::string>{"job_id", "name", "collective", "algorithm", "ranks", "bytes", "operations",
                                      "completed_operations", "time_us", "algbw_gbps", "busbw_gbps", "slowest_step",
                                      "slowest_step_us", "slowest_rank", "slowest_rank_us"}));
  ASSERT_EQ(f.rows.size(), 2u);
  EXPECT_EQ(f.text(0, "name"), "ar");
  EXPECT_EQ(f.integer(0, "ranks"), 2);
  EXPECT_EQ(f.integer(0, "bytes"), 1000);
  EXPECT_DOUBLE_EQ(f.real(0, "time_us"), 0.008);
  EXPECT_DOUBLE_EQ(f.real(0, "algbw_gbps"), 1.0);
  EXPECT_DOUBLE_EQ(f.real(0, "busbw_gbps"), 1.5);
  EXPECT_EQ(f.integer(0, "slowest_step"), 1);
  EXPECT_DOUBLE_EQ(f.real(0, "slowest_step_us"), 0.006);
  EXPECT_EQ(f.integer(0, "slowest_rank"), 1);
  EXPECT_DOUBLE_EQ(f.real(0, "slowest_rank_us"), 0.008);
  // The unfinished job: where it stopped, with no times.
  EXPECT_EQ(f.text(1, "name"), "g");
  EXPECT_TRUE(f.is_null(1, "bytes"));
  EXPECT_EQ(f.integer(1, "completed_operations"), 2);
  for (const char* column : {"time_us", "algbw_gbps", "busbw_gbps", "slowest_step_us", "slowest_rank_us"})
    EXPECT_TRUE(f.is_null(1, column)) << column;
  EXPECT_EQ(f.integer(1, "slowest_step"), 0);
  EXPECT_EQ(f.integer(1, "slowest_rank"), 1);
  // Run 2's job on its own.
  auto g = run_sql(db.str(), sql, {{"@run", int64_t{2}}});
  ASSERT_EQ(g.rows.size(), 1u);
  EXPECT_EQ(g.integer(0, "slowest_step"), 5);
  EXPECT_DOUBLE_EQ(g.real(0, "slowest_rank_us"), 0.199);
}

TEST(JobTables, ARepeatedJobIdIsRefusedAndTheFirstKept) {
  TempDbPath db;
  SqliteRecorder rec(db.str(), true);
  rec.begin_run(info());
  rec.job(job0());
  JobRecord again = job1();
  again.job = 0;
  expect_error<DbError>([&] { rec.job(again); }, {db.str(), "job(): job 0 ('g')", "already recorded in run 1"});
  rec.finish("done", 10'000, 0.1);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM jobs"), 1);
  EXPECT_EQ(run_sql(db.str(), "SELECT name FROM jobs").text(0, "name"), "ar");
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM job_ranks"), 2);  // the refused job's ranks neither
}

TEST(JobTables, MalformedRecordsAndMisuseAreRefused) {
  TempDbPath db;
  SqliteRecorder rec(db.str(), true);
  expect_error<DbError>([&] { rec.job(job0()); }, {"job() called before begin_run"});
  expect_error<DbError>([&] { rec.job_operation(op(0, 0, 0, kSend, 1, -1, 1, 0, 0, 0, 1)); },
                        {"job_operation() called before begin_run"});
  rec.begin_run(info());
  JobRecord short_of_ends = job0();
  short_of_ends.rank_ends = {6000};
  expect_error<std::logic_error>([&] { rec.job(short_of_ends); }, {"job 0 ('ar')", "2 ports but 1 rank ends"});
  rec.job(job0());  // a refused record is not counted as seen
  expect_error<std::logic_error>([&] { rec.job_operation(op(0, 1, 4, 3, 0, -1, 1, 0, 0, 0, 1)); },
                                 {"job 0 rank 1 op 4", "kind 3", "0 send, 1 recv, 2 calc"});
  rec.finish("done", 10'000, 0.1);
  expect_error<DbError>([&] { rec.job(job1()); }, {"job() called after finish"});
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM jobs"), 1);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM job_operations"), 0);
}

// As frames: what was handed to the recorder before the run stopped is
// written, whether it finishes as interrupted or is dropped without finish.
TEST(JobTables, InterruptedAndAbandonedRunsKeepTheirJobRows) {
  TempDbPath db;
  write_hand_made_run(db.str(), "interrupted");
  {
    SqliteRecorder rec(db.str(), true);
    rec.begin_run(info());
    record_hand_made_jobs(rec);
  }  // no finish: the destructor writes what is buffered and marks the run failed
  EXPECT_EQ(
      run_sql(db.str(), "SELECT group_concat(status) AS s FROM (SELECT status FROM runs ORDER BY run_id)").text(0, "s"),
      "interrupted,failed");
  for (const int run : {1, 2}) {
    const std::string where = " WHERE run_id = " + std::to_string(run);
    EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM jobs" + where), 2);
    EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM job_ranks" + where), 4);
    EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM job_operations" + where), 12);
  }
}

TEST(JobTables, SummaryLevelStillWritesJobs) {
  TempDbPath db;
  write_hand_made_run(db.str(), "done", "summary");
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM jobs"), 2);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM job_operations"), 12);
}

// Version 5 files written before the job tables existed, and version 4
// files, get them when fabricsim opens them: schema.sql's CREATE ... IF NOT
// EXISTS runs on every open, after the migration steps.
TEST(JobTables, OlderFilesGetTheJobTablesWhenOpened) {
  TempDbPath v5, v4;
  write_hand_made_run(v5.str());
  testing::exec_other(v5.str(),
                      "DROP VIEW v_job_ranks; DROP VIEW v_job_steps; DROP TABLE job_operations; "
                      "DROP TABLE job_ranks; DROP TABLE jobs;");
  write_hand_made_run(v4.str());
  testing::back_to_schema_version(v4.str(), 4);
  EXPECT_EQ(query_int(v4.str(), "SELECT count(*) FROM sqlite_schema WHERE name GLOB '*job*'"), 0);
  for (const std::string& path : {v5.str(), v4.str()}) {
    SCOPED_TRACE(path);
    write_hand_made_run(path);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM jobs WHERE run_id = 2"), 2);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM v_job_steps WHERE run_id = 2"), 3);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM v_job_ranks WHERE run_id = 2"), 4);
    EXPECT_EQ(query_int(path,
                        "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND "
                        "name = 'job_operations_by_rank'"),
              1);
  }
  EXPECT_EQ(run_sql(v4.str(), "SELECT value FROM meta WHERE key = 'schema_version'").text(0, "value"), "6");
}

// 200,000 operations (four batches) go in whole and in call order, and
// quickly: the simulation thread only appends them (0.012 s here), and the
// writer inserts them with multi-row statements, a transaction per batch
// (0.35-0.42 s here). A transaction per row, with one prepared statement,
// took 3.9 s for these rows on this machine: over the bound.
TEST(JobTables, ManyOperationsAreWrittenQuicklyAndInOrder) {
  constexpr int kRanks = 100, kOpsPerRank = 2000;  // 200,000 operations
  TempDbPath db;
  SqliteRecorder rec(db.str(), true);
  rec.begin_run(info());
  JobRecord j = job0();
  j.ports.clear();
  j.rank_ends.clear();
  for (int r = 0; r < kRanks; ++r) {
    j.ports.push_back(PortId(r));
    j.rank_ends.push_back(kOpsPerRank * 1000);
  }
  j.operations = j.completed = kRanks * kOpsPerRank;
  j.steps = kOpsPerRank / 2;
  const auto start = std::chrono::steady_clock::now();
  rec.job(j);
  for (int r = 0; r < kRanks; ++r) {
    for (int i = 0; i < kOpsPerRank; ++i) {
      const bool send = i % 2 == 0;
      rec.job_operation(op(0, r, i, send ? kSend : kRecv, (r + (send ? 1 : kRanks - 1)) % kRanks, -1, 4096, i / 2,
                           i / 2, i * 1000, i * 1000 + 900));
    }
  }
  const double recording = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rec.finish("done", kOpsPerRank * 1000, 0.1);
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::testing::Test::RecordProperty("recording_seconds", std::to_string(recording));
  ::testing::Test::RecordProperty("written_seconds", std::to_string(total));
  std::printf("200,000 job operations: %.3f s to record, %.3f s written (%.0f rows/s)\n", recording, total,
              kRanks * kOpsPerRank / total);
  EXPECT_LT(recording, 1.0);  // pushes and the hand-off of full batches
  EXPECT_LT(total, 2.5);      // six times what it takes here
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM job_operations"), kRanks * kOpsPerRank);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM job_ranks"), kRanks);
  // Call order: rank, then op.
  EXPECT_EQ(query_int(db.str(),
                      "SELECT count(*) FROM (SELECT rank * 1000000 + op AS k, lag(rank * 1000000 + op) OVER "
                      "(ORDER BY rowid) AS prev FROM job_operations) WHERE prev IS NOT NULL AND k <= prev"),
            0);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM v_job_steps"), kOpsPerRank / 2);
  EXPECT_EQ(query_int(db.str(), "SELECT sum(bytes_sent) FROM v_job_steps"), int64_t{kRanks} * kOpsPerRank / 2 * 4096);
  EXPECT_EQ(query_int(db.str(),
                      "SELECT count(*) FROM v_job_ranks WHERE bytes_sent = bytes_received AND "
                      "operations = 2000 AND time_ps = 2000 * 1000 - 1000"),
            kRanks);
}

}  // namespace
}  // namespace fabric::db
