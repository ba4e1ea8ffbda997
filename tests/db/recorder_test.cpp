// SqliteRecorder: every record kind round-trips, NULL mapping, log levels,
// several runs per file, indexes, and the recorder's own failures.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <regex>

#include "db/sqlite_recorder.h"
#include "tests/db/db_test_support.h"

namespace fabric::db {
namespace {

using testing::query_int;
using testing::run_sql;
using testing::TempDbPath;

RunInfo test_run_info() { return RunInfo{"E11", "[sim]\ntime = 4us\n", "0.1.0-test", "frames", 42}; }

FrameRecord make_frame(uint64_t id, uint32_t flow, uint32_t src, uint32_t bytes, Picos created, Picos injected) {
  return FrameRecord{FrameId(id), FlowId(flow), PortId(src), bytes, 3, created, injected};
}

TEST(SqliteRecorder, EveryRecordKindRoundTrips) {
  TempDbPath db;
  {
    SqliteRecorder rec(db.str(), true);
    EXPECT_EQ(rec.begin_run(test_run_info()), 1);
    rec.add_port(0, 0, "user", 1, 2, 3);
    rec.add_port(64, 0, "surrogate", 1, 2, 4);
    rec.add_flow(7, "hot", "unicast", 0, 3, 12.5, 1500, "1500", 1000, 9000);
    rec.add_flow(8, "mc", "multicast", 0, 5, 2.0, std::nullopt, "uniform(64,1500)", 0, std::nullopt);
    rec.add_flow_dest(7, 64);
    rec.add_flow_dest(8, 1);
    rec.frame(make_frame(100, 7, 0, 1500, 1000, 1200));
    rec.frame(make_frame(101, 7, 0, 64, 2000, -1));
    rec.delivery(DeliveryRecord{FrameId(100), FlowId(7), PortId(64), 5000, 2, 1500, 1000});
    rec.drop(DropRecord{FrameId(101), FlowId(7), PortId(0), -1, DropReason::header_pool, 2100});
    rec.drop(DropRecord{FrameId(100), FlowId(7), PortId(9), 64, DropReason::voq_tail, 4000});
    const EntityId leaf = rec.declare(EntityKind::leaf, "leaf0", -1, unit_place({UnitKind::leaf, 0}));
    const EntityId link = rec.declare(EntityKind::link, "leaf0_spine1_up", -1,
                                      link_place({UnitKind::leaf, 0}, {UnitKind::spine, 1}, Direction::up));
    rec.declare(EntityKind::cna, "cna9", 9);  // nothing recorded about it: no row
    rec.sample(3000, leaf, metric::cache_entries, 4096.5);
    rec.total(link, metric::bytes, 1e9);
    rec.event(3100, EventKind::pause, port_entity(PortId(64)), -1, 0.0);
    rec.event(3200, EventKind::rate_change, port_entity(PortId(0)), 7, 9.5);
    rec.subflow_summary(SubflowSummary{FlowId(7), PortId(64), 1, 1500, 5000, 5000, 4000, 4000, 4000});
    rec.subflow_summary(SubflowSummary{FlowId(8), PortId(1), 0, 0, 0, 0, 0, 0, 0});
    rec.finish("done", 4'000'000, 1.25);
  }

  auto runs = run_sql(db.str(), "SELECT * FROM runs");
  ASSERT_EQ(runs.rows.size(), 1u);
  EXPECT_EQ(runs.integer(0, "run_id"), 1);
  EXPECT_EQ(runs.text(0, "study"), "E11");
  EXPECT_EQ(runs.text(0, "config"), "[sim]\ntime = 4us\n");
  EXPECT_EQ(runs.integer(0, "seed"), 42);
  EXPECT_EQ(runs.integer(0, "sim_time_ps"), 4'000'000);
  EXPECT_DOUBLE_EQ(runs.real(0, "wall_seconds"), 1.25);
  EXPECT_EQ(runs.text(0, "model_version"), "0.1.0-test");
  EXPECT_TRUE(std::regex_match(runs.text(0, "started_at"), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  EXPECT_EQ(runs.text(0, "status"), "done");
  EXPECT_EQ(runs.text(0, "log_level"), "frames");

  auto ports = run_sql(db.str(), "SELECT * FROM ports ORDER BY port_id");
  ASSERT_EQ(ports.rows.size(), 2u);
  EXPECT_EQ(ports.integer(1, "port_id"), 64);
  EXPECT_EQ(ports.text(1, "kind"), "surrogate");
  EXPECT_EQ(ports.integer(1, "rack"), 1);
  EXPECT_EQ(ports.integer(1, "chassis"), 2);
  EXPECT_EQ(ports.integer(1, "cie"), 4);

  auto flows = run_sql(db.str(), "SELECT * FROM flows ORDER BY flow_id");
  ASSERT_EQ(flows.rows.size(), 2u);
  EXPECT_EQ(flows.text(0, "name"), "hot");
  EXPECT_EQ(flows.text(0, "kind"), "unicast");
  EXPECT_EQ(flows.integer(0, "priority"), 3);
  EXPECT_DOUBLE_EQ(flows.real(0, "offered_gbps"), 12.5);
  EXPECT_EQ(flows.integer(0, "frame_bytes"), 1500);
  EXPECT_EQ(flows.integer(0, "start_ps"), 1000);
  EXPECT_EQ(flows.integer(0, "stop_ps"), 9000);
  EXPECT_TRUE(flows.is_null(1, "frame_bytes"));
  EXPECT_EQ(flows.text(1, "frame_size"), "uniform(64,1500)");
  EXPECT_TRUE(flows.is_null(1, "stop_ps"));
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM flow_dests WHERE run_id = 1"), 2);

  auto frames = run_sql(db.str(), "SELECT * FROM frames ORDER BY rowid");
  ASSERT_EQ(frames.rows.size(), 2u);
  EXPECT_EQ(frames.integer(0, "frame_id"), 100);
  EXPECT_EQ(frames.integer(0, "bytes"), 1500);
  EXPECT_EQ(frames.integer(0, "priority"), 3);
  EXPECT_EQ(frames.integer(0, "t_injected_ps"), 1200);
  EXPECT_TRUE(frames.is_null(1, "t_injected_ps"));  // never sent

  auto latency = run_sql(db.str(), "SELECT * FROM v_latency");
  ASSERT_EQ(latency.rows.size(), 1u);
  EXPECT_EQ(latency.integer(0, "dst_port"), 64);
  EXPECT_EQ(latency.integer(0, "bytes"), 1500);
  EXPECT_EQ(latency.integer(0, "latency_ps"), 4000);
  EXPECT_EQ(latency.integer(0, "surrogate_levels"), 2);

  auto drops = run_sql(db.str(), "SELECT * FROM drops ORDER BY rowid");
  ASSERT_EQ(drops.rows.size(), 2u);
  EXPECT_TRUE(drops.is_null(0, "dst_port"));  // whole frame
  EXPECT_EQ(drops.text(0, "reason"), "header_pool");
  EXPECT_EQ(drops.integer(1, "dst_port"), 64);
  EXPECT_EQ(drops.integer(1, "port_id"), 9);
  EXPECT_EQ(drops.text(1, "reason"), "voq_tail");

  // Ports are entities under their own ids; the others from 1000000 on, in
  // the order declared, once something is recorded about them.
  auto entities = run_sql(db.str(), "SELECT * FROM entities ORDER BY entity_id");
  ASSERT_EQ(entities.rows.size(), 4u);
  EXPECT_EQ(entities.integer(0, "entity_id"), 0);
  EXPECT_EQ(entities.text(0, "kind"), "port");
  EXPECT_EQ(entities.text(0, "name"), "port0");
  EXPECT_EQ(entities.integer(0, "port_id"), 0);
  EXPECT_EQ(entities.text(0, "from_kind"), "port");  // a port is its own unit
  EXPECT_EQ(entities.integer(0, "from_id"), 0);
  EXPECT_EQ(entities.integer(1, "entity_id"), 64);
  EXPECT_EQ(entities.integer(1, "from_id"), 64);
  EXPECT_EQ(entities.integer(2, "entity_id"), kFirstNamedEntity);
  EXPECT_EQ(entities.text(2, "kind"), "leaf");
  EXPECT_EQ(entities.text(2, "name"), "leaf0");
  EXPECT_TRUE(entities.is_null(2, "port_id"));
  EXPECT_EQ(entities.text(2, "from_kind"), "leaf");
  EXPECT_EQ(entities.integer(2, "from_id"), 0);
  for (const char* none : {"to_kind", "to_id", "direction", "vl"}) EXPECT_TRUE(entities.is_null(2, none)) << none;
  EXPECT_EQ(entities.integer(3, "entity_id"), kFirstNamedEntity + 1);
  EXPECT_EQ(entities.text(3, "kind"), "link");
  // A link's ends, from sender to receiver, and its direction.
  EXPECT_EQ(entities.text(3, "from_kind"), "leaf");
  EXPECT_EQ(entities.integer(3, "from_id"), 0);
  EXPECT_EQ(entities.text(3, "to_kind"), "spine");
  EXPECT_EQ(entities.integer(3, "to_id"), 1);
  EXPECT_EQ(entities.text(3, "direction"), "up");
  EXPECT_TRUE(entities.is_null(3, "vl"));

  auto samples = run_sql(db.str(), "SELECT * FROM v_samples");
  ASSERT_EQ(samples.rows.size(), 1u);
  EXPECT_EQ(samples.text(0, "entity"), "leaf0");
  EXPECT_EQ(samples.text(0, "entity_kind"), "leaf");
  EXPECT_EQ(samples.text(0, "metric"), "cache_entries");
  EXPECT_EQ(samples.text(0, "unit"), "entries");
  EXPECT_DOUBLE_EQ(samples.real(0, "value"), 4096.5);

  auto totals = run_sql(db.str(), "SELECT * FROM v_run_totals");
  ASSERT_EQ(totals.rows.size(), 1u);
  EXPECT_EQ(totals.text(0, "entity"), "leaf0_spine1_up");
  EXPECT_EQ(totals.text(0, "unit"), "B");
  EXPECT_DOUBLE_EQ(totals.real(0, "value"), 1e9);

  auto events = run_sql(db.str(), "SELECT * FROM events ORDER BY t_ps");
  ASSERT_EQ(events.rows.size(), 2u);
  EXPECT_EQ(events.integer(0, "entity_id"), 64);
  EXPECT_EQ(events.text(0, "kind"), "pause");
  EXPECT_TRUE(events.is_null(0, "flow_id"));
  EXPECT_EQ(events.text(1, "kind"), "rate_change");
  EXPECT_EQ(events.integer(1, "flow_id"), 7);
  EXPECT_DOUBLE_EQ(events.real(1, "value"), 9.5);

  auto summary = run_sql(db.str(), "SELECT * FROM subflow_summary ORDER BY flow_id");
  ASSERT_EQ(summary.rows.size(), 2u);
  EXPECT_EQ(summary.integer(0, "frames"), 1);
  EXPECT_EQ(summary.integer(0, "bytes"), 1500);
  EXPECT_EQ(summary.integer(0, "latency_min_ps"), 4000);
  EXPECT_TRUE(summary.is_null(1, "first_delivered_ps"));  // received nothing
  EXPECT_TRUE(summary.is_null(1, "latency_min_ps"));
  EXPECT_EQ(summary.integer(1, "latency_sum_ps"), 0);
}

TEST(SqliteRecorder, SummaryLevelSkipsFramesButKeepsSummariesAndDrops) {
  TempDbPath db;
  SqliteRecorder rec(db.str(), false);
  rec.begin_run({"E4e", "cfg", "v", "summary", 1});
  rec.frame(make_frame(1, 1, 0, 100, 0, 10));
  rec.delivery(DeliveryRecord{FrameId(1), FlowId(1), PortId(2), 50, 0, 100, 0});
  rec.drop(DropRecord{FrameId(2), FlowId(1), PortId(0), -1, DropReason::link, 60});
  rec.subflow_summary(SubflowSummary{FlowId(1), PortId(2), 1, 100, 50, 50, 50, 50, 50});
  rec.finish("interrupted", 100, 0.5);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames"), 0);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM deliveries"), 0);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM drops"), 1);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM subflow_summary"), 1);
  EXPECT_EQ(run_sql(db.str(), "SELECT status, log_level FROM runs").text(0, "status"), "interrupted");
}

TEST(SqliteRecorder, TwoRunsInOneFileKeepBoth) {
  TempDbPath db;
  for (int run = 1; run <= 2; ++run) {
    SqliteRecorder rec(db.str(), true);
    EXPECT_EQ(rec.begin_run(test_run_info()), run);
    for (int i = 0; i < run * 10; ++i) rec.frame(make_frame(i, 1, 0, 100, i, i));
    rec.finish("done", 1000, 0.1);
  }
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM runs WHERE status = 'done'"), 2);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames WHERE run_id = 1"), 10);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames WHERE run_id = 2"), 20);
}

TEST(SqliteRecorder, IndexesArePresentAtAllTimesAndUserIndexesSurvive) {
  TempDbPath db;
  const char* count_indexes =
      "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN ('drops_by_run', 'events_by_run', "
      "'samples_by_series', 'frames_by_id')";
  for (int run = 1; run <= 3; ++run) {
    SqliteRecorder rec(db.str(), true);
    const int expected = run == 1 ? 3 : 4;
    EXPECT_EQ(query_int(db.str(), count_indexes), expected) << "opening for run " << run;
    rec.begin_run(test_run_info());
    rec.frame(make_frame(run, 1, 0, 100, 0, 10));
    rec.flush();
    EXPECT_EQ(query_int(db.str(), count_indexes), expected) << "while run " << run << " loads";
    EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames"), run);  // readable meanwhile
    rec.finish(run == 1 ? "done" : "interrupted", 100, 0.0);
    EXPECT_EQ(query_int(db.str(), count_indexes), expected) << "after run " << run;
    if (run == 1) {
      const auto dir = testing::source_dir();
      ASSERT_TRUE(dir.has_value());
      testing::exec_other(db.str(), testing::read_file(*dir / "db" / "queries" / "frames_index.sql"));
    }
  }
  auto plan = run_sql(db.str(), "EXPLAIN QUERY PLAN SELECT * FROM frames WHERE run_id = 1 AND frame_id = 1");
  EXPECT_NE(plan.text(0, "detail").find("frames_by_id"), std::string::npos);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames WHERE run_id = 3 AND frame_id = 3"), 1);
}

TEST(SqliteRecorder, AFileWhoseIndexesWereDroppedGetsThemBackWhenOpened) {
  TempDbPath db;
  { SqliteRecorder rec(db.str(), true); }
  testing::exec_other(db.str(), "DROP INDEX drops_by_run; DROP INDEX samples_by_series");
  SqliteRecorder rec(db.str(), true);
  EXPECT_EQ(query_int(db.str(),
                      "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN "
                      "('drops_by_run', 'events_by_run', 'samples_by_series')"),
            3);
}

TEST(SqliteRecorder, ReachedAdvancesTheRunsRowWithTheBatch) {
  TempDbPath db;
  SqliteRecorder rec(db.str(), true);
  rec.begin_run(test_run_info());
  rec.frame(make_frame(1, 1, 0, 100, 0, 10));
  rec.reached(5000);
  rec.flush();
  auto runs = run_sql(db.str(), "SELECT status, sim_time_ps FROM runs");
  EXPECT_EQ(runs.text(0, "status"), "running");
  EXPECT_EQ(runs.integer(0, "sim_time_ps"), 5000);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM run_owners WHERE run_id = 1"), 1);
  rec.finish("done", 9000, 0.1);
  EXPECT_EQ(query_int(db.str(), "SELECT sim_time_ps FROM runs"), 9000);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM run_owners"), 0);
}

TEST(SqliteRecorder, ManyBatchesKeepCallOrderAndAreDeterministic) {
  TempDbPath db;
  const int kFrames = 150'000;  // more than two batches of frames + deliveries
  for (int run = 1; run <= 2; ++run) {
    SqliteRecorder rec(db.str(), true);
    rec.begin_run(test_run_info());
    for (int i = 0; i < kFrames; ++i) {
      const uint64_t id = (uint64_t{static_cast<uint32_t>(i % 7)} << 32) | static_cast<uint64_t>(i);
      rec.frame(make_frame(id, i % 5, i % 7, 64 + i % 1000, i * 10, i * 10 + 5));
      rec.delivery(DeliveryRecord{FrameId(id), FlowId(i % 5), PortId(i % 11), i * 10 + 900, i % 3,
                                  static_cast<uint32_t>(64 + i % 1000), i * 10});
      if (i % 1000 == 0)
        rec.sample(i * 10, rec.declare(EntityKind::leaf, "leaf" + std::to_string(i % 4)), metric::cache_entries,
                   i * 0.5);
    }
    rec.finish("done", kFrames * 10, 0.0);
  }
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM frames WHERE run_id = 1"), kFrames);
  EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM deliveries WHERE run_id = 2"), kFrames);
  // Rows are stored in call order.
  EXPECT_EQ(query_int(db.str(),
                      "SELECT count(*) FROM (SELECT t_created_ps, lag(t_created_ps) OVER (ORDER BY rowid) AS prev "
                      "FROM frames WHERE run_id = 1) WHERE prev IS NOT NULL AND t_created_ps <= prev"),
            0);
  // Same calls, same content, same order.
  const std::pair<const char*, const char*> tables[] = {
      {"frames", "frame_id, flow_id, src_port, bytes, priority, t_created_ps, t_injected_ps"},
      {"deliveries", "frame_id, flow_id, dst_port, t_delivered_ps, surrogate_levels"},
      {"samples", "t_ps, entity_id, metric, value"}};
  for (const auto& [table, columns] : tables) {
    auto numbered = [&](int run) {
      return std::string("SELECT row_number() OVER (ORDER BY rowid), ") + columns + " FROM " + table +
             " WHERE run_id = " + std::to_string(run);
    };
    EXPECT_EQ(query_int(db.str(), "SELECT count(*) FROM (" + numbered(1) + " EXCEPT " + numbered(2) + ")"), 0) << table;
    EXPECT_EQ(query_int(db.str(), std::string("SELECT count(*) FROM ") + table + " WHERE run_id = 1"),
              query_int(db.str(), std::string("SELECT count(*) FROM ") + table + " WHERE run_id = 2"))
        << table;
  }
}

}  // namespace
}  // namespace fabric::db
