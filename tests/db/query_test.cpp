// The ready-made queries in db/queries/ give exact, hand-computed answers
// on a small database written through SqliteRecorder.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>

#include "db/sqlite_recorder.h"
#include "tests/db/db_test_support.h"

namespace fabric::db {
namespace {

using testing::Params;
using testing::QueryResult;
using testing::TempDbPath;

// Run 1: flows 1 "a" (0 -> 10), 2 "b" (1 -> 10, 11, multicast), 3 "idle"
// (2 -> 12, sends nothing); 4000 ps long. Run 2: flow 9 with latencies
// 1..1000 ns in shuffled order, flow 10 with one 42 ps latency.
void write_test_database(const std::string& path) {
  SqliteRecorder rec(path, true);
  // Its samples every 1000 ps: the windows of v_subflow_windows.
  rec.begin_run(
      {"test", "cfg", "v", "frames", 1, "fabric", {{"record.sample_interval", "1000ps", "default", "", 1000.0}}, {}});
  for (const int port : {0, 1, 2, 3, 4, 5, 10, 11, 12}) rec.add_port(port, 0, "user", 0, 0, 0);
  const auto port = [](uint32_t p) { return port_entity(PortId(p)); };
  const EntityId port10_out = rec.declare(EntityKind::congestion_point, "port10.out", 10);
  const EntityId port11_in = rec.declare(EntityKind::congestion_point, "port11.in", 11);
  rec.add_flow(1, "a", "unicast", 0, 0, 1.0, 100, "100", 0, std::nullopt);
  rec.add_flow(2, "b", "multicast", 1, 0, 1.0, 250, "250", 0, std::nullopt);
  rec.add_flow(3, "idle", "unicast", 2, 0, 1.0, 64, "64", 0, std::nullopt);
  rec.add_flow_dest(1, 10);
  rec.add_flow_dest(2, 10);
  rec.add_flow_dest(2, 11);
  rec.add_flow_dest(3, 12);
  std::map<uint64_t, FrameRecord> frames;
  auto frame = [&](uint64_t id, uint32_t flow, uint32_t bytes, Picos created, Picos injected) {
    frames[id] = FrameRecord{FrameId(id), FlowId(flow), PortId(flow - 1), bytes, 0, created, injected};
    rec.frame(frames[id]);
  };
  auto deliver = [&](uint64_t id, uint32_t flow, uint32_t dst, Picos t, int levels) {
    const FrameRecord& f = frames.at(id);
    rec.delivery(DeliveryRecord{FrameId(id), FlowId(flow), PortId(dst), t, levels, f.bytes, f.created});
  };
  auto drop = [&](uint64_t id, uint32_t flow, int64_t dst, DropReason reason, Picos t) {
    rec.drop(DropRecord{FrameId(id), FlowId(flow), PortId(5), dst, reason, t});
  };
  frame(1, 1, 100, 0, 10);
  frame(2, 1, 100, 100, 110);
  frame(3, 1, 100, 200, 210);
  frame(4, 1, 100, 300, 310);
  frame(5, 1, 100, 3600, -1);
  frame(11, 2, 250, 1000, 1010);
  frame(12, 2, 250, 2000, 2010);
  frame(13, 2, 250, 2500, 2510);
  deliver(1, 1, 10, 500, 0);
  deliver(2, 1, 10, 1500, 0);
  deliver(3, 1, 10, 1600, 0);
  deliver(4, 1, 10, 3500, 0);
  deliver(11, 2, 10, 1200, 0);
  deliver(11, 2, 11, 1300, 1);
  deliver(12, 2, 10, 2100, 0);
  drop(12, 2, 11, DropReason::voq_tail, 2050);
  drop(13, 2, 10, DropReason::voq_tail, 2600);
  drop(13, 2, 11, DropReason::voq_tail, 2700);
  drop(5, 1, -1, DropReason::header_pool, 3600);
  // PAUSE: port3 priority 0 stopped 100-600 and 2000-end (4000); priority 2
  // 300-400; port4 priority 0 1000-1500.
  rec.event(100, EventKind::pause, port(3), -1, 0);
  rec.event(300, EventKind::pause, port(3), -1, 2);
  rec.event(400, EventKind::go, port(3), -1, 2);
  rec.event(600, EventKind::go, port(3), -1, 0);
  rec.event(1000, EventKind::pause, port(4), -1, 0);
  rec.event(1500, EventKind::go, port(4), -1, 0);
  rec.event(2000, EventKind::pause, port(3), -1, 0);
  // CNMs: flow 1 twice (two congestion points), flow 2 once.
  rec.event(700, EventKind::cnm, port10_out, 1, 20);
  rec.event(800, EventKind::cnm, port10_out, 2, 63);
  rec.event(900, EventKind::cnm, port11_in, 1, 40);
  // Cache counters, cumulative: the last sample of each port counts.
  rec.sample(1000, port(10), metric::cache_hits, 5);
  rec.sample(1000, port(10), metric::cache_misses, 5);
  rec.sample(2000, port(10), metric::cache_hits, 30);
  rec.sample(2000, port(10), metric::cache_misses, 10);
  rec.sample(2000, port(10), metric::cache_premature_evictions, 2);
  rec.sample(2000, port(10), metric::cache_background_reclaims, 7);
  rec.sample(2000, port(11), metric::cache_hits, 0);
  rec.sample(2000, port(11), metric::cache_misses, 4);
  rec.sample(2000, port(10), metric::ingress_bytes, 1e6);  // not a cache counter
  rec.finish("done", 4000, 0.0);

  SqliteRecorder rec2(path, true);
  rec2.begin_run({"test", "cfg", "v", "frames", 2});
  for (int i = 0; i < 1000; ++i) {
    const Picos latency = ((i * 7919) % 1000 + 1) * 1000;  // a permutation of 1..1000 ns
    rec2.frame(FrameRecord{FrameId(i), FlowId(9), PortId(0), 64, 0, i * 10, i * 10});
    rec2.delivery(DeliveryRecord{FrameId(i), FlowId(9), PortId(1), i * 10 + latency, 0, 64, i * 10});
  }
  rec2.frame(FrameRecord{FrameId(5000), FlowId(10), PortId(2), 64, 0, 0, 0});
  rec2.delivery(DeliveryRecord{FrameId(5000), FlowId(10), PortId(1), 42, 0, 64, 0});
  rec2.finish("done", 2'000'000, 0.0);
}

class Queries : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new TempDbPath;
    write_test_database(db_->str());
  }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  // Runs db/queries/<name> with `params`, or skips when it is not found.
  static std::optional<QueryResult> run(const std::string& name, const Params& params) {
    const auto dir = testing::source_dir();
    if (!dir) return std::nullopt;
    return testing::run_sql(db_->str(), testing::read_file(*dir / "db" / "queries" / name), params);
  }

  static TempDbPath* db_;
};

TempDbPath* Queries::db_ = nullptr;

#define RUN_OR_SKIP(var, name, params)                                              \
  const auto var##_opt = run(name, params);                                         \
  if (!var##_opt) GTEST_SKIP() << "db/queries not found; set FABRICSIM_SOURCE_DIR"; \
  const QueryResult& var = *var##_opt

TEST_F(Queries, SubflowThroughputPerWindowIncludesIdleWindowsAndSubflows) {
  RUN_OR_SKIP(r, "subflow_throughput.sql", (Params{{"@run", int64_t{1}}, {"@window_ps", int64_t{1000}}}));
  ASSERT_EQ(r.rows.size(), 16u);  // 4 subflows x windows 0..3
  // (flow, dst, window) -> Gb/s: bytes * 8 / 1000 ps * 1000.
  const struct {
    int64_t flow, dst, window;
    double gbps;
    const char* name;
  } expected[] = {{1, 10, 0, 800, "a"},  {1, 10, 1, 1600, "a"}, {1, 10, 2, 0, "a"},    {1, 10, 3, 800, "a"},
                  {2, 10, 0, 0, "b"},    {2, 10, 1, 2000, "b"}, {2, 10, 2, 2000, "b"}, {2, 10, 3, 0, "b"},
                  {2, 11, 0, 0, "b"},    {2, 11, 1, 2000, "b"}, {2, 11, 2, 0, "b"},    {2, 11, 3, 0, "b"},
                  {3, 12, 0, 0, "idle"}, {3, 12, 1, 0, "idle"}, {3, 12, 2, 0, "idle"}, {3, 12, 3, 0, "idle"}};
  for (size_t i = 0; i < 16; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.integer(i, "flow_id"), expected[i].flow);
    EXPECT_EQ(r.text(i, "flow_name"), expected[i].name);
    EXPECT_EQ(r.integer(i, "dst_port"), expected[i].dst);
    EXPECT_EQ(r.integer(i, "window"), expected[i].window);
    EXPECT_EQ(r.integer(i, "window_start_ps"), expected[i].window * 1000);
    EXPECT_DOUBLE_EQ(r.real(i, "gbps"), expected[i].gbps);
  }
}

// The view gives the cookbook's windows at the run's record.sample_interval,
// without the idle ones.
TEST_F(Queries, SubflowWindowsViewIsTheCookbooksAtTheSampleInterval) {
  RUN_OR_SKIP(r, "subflow_throughput.sql", (Params{{"@run", int64_t{1}}, {"@window_ps", int64_t{1000}}}));
  const QueryResult v = testing::run_sql(db_->str(),
                                         "SELECT * FROM v_subflow_windows WHERE run_id = 1 "
                                         "ORDER BY flow_id, dst_port, window");
  size_t row = 0;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    if (r.real(i, "gbps") == 0) continue;
    SCOPED_TRACE(i);
    ASSERT_LT(row, v.rows.size());
    EXPECT_EQ(v.integer(row, "flow_id"), r.integer(i, "flow_id"));
    EXPECT_EQ(v.integer(row, "dst_port"), r.integer(i, "dst_port"));
    EXPECT_EQ(v.integer(row, "window"), r.integer(i, "window"));
    EXPECT_EQ(v.integer(row, "window_ps"), 1000);
    EXPECT_EQ(v.integer(row, "bytes"), r.integer(i, "bytes"));
    EXPECT_DOUBLE_EQ(v.real(row, "gbps"), r.real(i, "gbps"));
    ++row;
  }
  EXPECT_EQ(row, v.rows.size());
  EXPECT_EQ(row, 6u);
  // Run 2 has no record.sample_interval: no windows.
  EXPECT_EQ(testing::run_sql(db_->str(), "SELECT * FROM v_subflow_windows WHERE run_id = 2").rows.size(), 0u);
}

TEST_F(Queries, SubflowMeanThroughputOverAnInterval) {
  RUN_OR_SKIP(r, "subflow_mean_throughput.sql",
              (Params{{"@run", int64_t{1}}, {"@from_ps", int64_t{1000}}, {"@to_ps", int64_t{3000}}}));
  ASSERT_EQ(r.rows.size(), 4u);
  const struct {
    int64_t flow, dst, frames, bytes;
    double gbps;
  } expected[] = {{1, 10, 2, 200, 800}, {2, 10, 2, 500, 2000}, {2, 11, 1, 250, 1000}, {3, 12, 0, 0, 0}};
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.integer(i, "flow_id"), expected[i].flow);
    EXPECT_EQ(r.integer(i, "dst_port"), expected[i].dst);
    EXPECT_EQ(r.integer(i, "frames"), expected[i].frames);
    EXPECT_EQ(r.integer(i, "bytes"), expected[i].bytes);
    EXPECT_DOUBLE_EQ(r.real(i, "gbps"), expected[i].gbps);
  }
}

TEST_F(Queries, LatencyPercentilesSmallFlows) {
  RUN_OR_SKIP(r, "latency_percentiles.sql", (Params{{"@run", int64_t{1}}}));
  ASSERT_EQ(r.rows.size(), 2u);  // the idle flow has no deliveries
  // Flow 1: 500, 1400, 1400, 3200 ps. Flow 2: 100, 200, 300 ps.
  EXPECT_EQ(r.integer(0, "flow_id"), 1);
  EXPECT_EQ(r.text(0, "flow_name"), "a");
  EXPECT_EQ(r.integer(0, "deliveries"), 4);
  EXPECT_DOUBLE_EQ(r.real(0, "p50_ns"), 1.4);
  EXPECT_DOUBLE_EQ(r.real(0, "p99_ns"), 3.2);
  EXPECT_DOUBLE_EQ(r.real(0, "p999_ns"), 3.2);
  EXPECT_DOUBLE_EQ(r.real(0, "min_ns"), 0.5);
  EXPECT_DOUBLE_EQ(r.real(0, "max_ns"), 3.2);
  EXPECT_DOUBLE_EQ(r.real(0, "mean_ns"), 1.625);
  EXPECT_EQ(r.integer(1, "flow_id"), 2);
  EXPECT_DOUBLE_EQ(r.real(1, "p50_ns"), 0.2);
  EXPECT_DOUBLE_EQ(r.real(1, "p99_ns"), 0.3);
  EXPECT_DOUBLE_EQ(r.real(1, "mean_ns"), 0.2);
}

TEST_F(Queries, LatencyPercentilesNearestRankOnAThousandValues) {
  RUN_OR_SKIP(r, "latency_percentiles.sql", (Params{{"@run", int64_t{2}}}));
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.integer(0, "flow_id"), 9);
  EXPECT_EQ(r.integer(0, "deliveries"), 1000);
  EXPECT_DOUBLE_EQ(r.real(0, "p50_ns"), 500);   // rank ceil(0.5 * 1000)
  EXPECT_DOUBLE_EQ(r.real(0, "p99_ns"), 990);   // rank ceil(0.99 * 1000)
  EXPECT_DOUBLE_EQ(r.real(0, "p999_ns"), 999);  // rank ceil(0.999 * 1000)
  EXPECT_DOUBLE_EQ(r.real(0, "min_ns"), 1);
  EXPECT_DOUBLE_EQ(r.real(0, "max_ns"), 1000);
  EXPECT_DOUBLE_EQ(r.real(0, "mean_ns"), 500.5);
  EXPECT_EQ(r.integer(1, "flow_id"), 10);
  EXPECT_DOUBLE_EQ(r.real(1, "p50_ns"), 0.042);
  EXPECT_DOUBLE_EQ(r.real(1, "p999_ns"), 0.042);
}

TEST_F(Queries, LatencyPercentilesPerSurrogateLevel) {
  RUN_OR_SKIP(r, "latency_percentiles_by_level.sql", (Params{{"@run", int64_t{1}}}));
  ASSERT_EQ(r.rows.size(), 3u);  // (1, 0), (2, 0), (2, 1)
  EXPECT_EQ(r.integer(1, "flow_id"), 2);
  EXPECT_EQ(r.integer(1, "surrogate_levels"), 0);
  EXPECT_EQ(r.integer(1, "deliveries"), 2);
  EXPECT_DOUBLE_EQ(r.real(1, "p50_ns"), 0.1);
  EXPECT_DOUBLE_EQ(r.real(1, "p99_ns"), 0.2);
  EXPECT_EQ(r.integer(2, "surrogate_levels"), 1);
  EXPECT_DOUBLE_EQ(r.real(2, "p50_ns"), 0.3);
  EXPECT_DOUBLE_EQ(r.real(2, "max_ns"), 0.3);
}

TEST_F(Queries, JainIndexPerWindow) {
  RUN_OR_SKIP(all, "jain_fairness.sql", (Params{{"@run", int64_t{1}}, {"@window_ps", int64_t{1000}}}));
  ASSERT_EQ(all.rows.size(), 4u);
  // Bytes per subflow (1/10, 2/10, 2/11, 3/12): w0 100,0,0,0  w1 200,250,250,0.
  EXPECT_EQ(all.integer(0, "subflows"), 4);
  EXPECT_DOUBLE_EQ(all.real(0, "jain_index"), 0.25);
  EXPECT_DOUBLE_EQ(all.real(1, "jain_index"), 700.0 * 700.0 / (4 * 165000.0));
  EXPECT_DOUBLE_EQ(all.real(1, "total_gbps"), 5600);

  RUN_OR_SKIP(to10, "jain_fairness.sql",
              (Params{{"@run", int64_t{1}}, {"@window_ps", int64_t{1000}}, {"@dst_port", int64_t{10}}}));
  ASSERT_EQ(to10.rows.size(), 4u);
  EXPECT_EQ(to10.integer(1, "subflows"), 2);
  EXPECT_DOUBLE_EQ(to10.real(0, "jain_index"), 0.5);
  EXPECT_DOUBLE_EQ(to10.real(1, "jain_index"), 450.0 * 450.0 / (2 * 102500.0));
}

TEST_F(Queries, DropsByReason) {
  RUN_OR_SKIP(r, "drops_by_reason.sql", (Params{{"@run", int64_t{1}}}));
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.text(0, "reason"), "voq_tail");
  EXPECT_EQ(r.integer(0, "drops"), 3);
  EXPECT_EQ(r.integer(0, "whole_frames"), 0);
  EXPECT_EQ(r.integer(0, "copies"), 3);
  EXPECT_EQ(r.integer(0, "first_ps"), 2050);
  EXPECT_EQ(r.integer(0, "last_ps"), 2700);
  EXPECT_EQ(r.text(1, "reason"), "header_pool");
  EXPECT_EQ(r.integer(1, "drops"), 1);
  EXPECT_EQ(r.integer(1, "whole_frames"), 1);
}

// The documented usage: the sqlite3 shell with `.parameter set`.
TEST_F(Queries, PauseTimePerPortAndPriority) {
  RUN_OR_SKIP(r, "pause_time.sql", (Params{{"@run", int64_t{1}}}));
  ASSERT_EQ(r.rows.size(), 3u);
  const struct {
    const char* port;
    int64_t priority, pauses;
    double paused_us, fraction;
    int64_t first;
    double longest_us;
  } expected[] = {{"port3", 0, 2, 2500e-6, 0.625, 100, 2000e-6},  // the second STOP lasts to the end of the run
                  {"port4", 0, 1, 500e-6, 0.125, 1000, 500e-6},
                  {"port3", 2, 1, 100e-6, 0.025, 300, 100e-6}};
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.text(i, "port"), expected[i].port);
    EXPECT_EQ(r.integer(i, "priority"), expected[i].priority);
    EXPECT_EQ(r.integer(i, "pauses"), expected[i].pauses);
    EXPECT_DOUBLE_EQ(r.real(i, "paused_us"), expected[i].paused_us);
    EXPECT_DOUBLE_EQ(r.real(i, "paused_fraction"), expected[i].fraction);
    EXPECT_EQ(r.integer(i, "first_pause_ps"), expected[i].first);
    EXPECT_DOUBLE_EQ(r.real(i, "longest_us"), expected[i].longest_us);
  }
  RUN_OR_SKIP(none, "pause_time.sql", (Params{{"@run", int64_t{2}}}));
  EXPECT_TRUE(none.rows.empty());
}

TEST_F(Queries, CnmsPerFlow) {
  RUN_OR_SKIP(r, "cnms_per_flow.sql", (Params{{"@run", int64_t{1}}}));
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.integer(0, "flow_id"), 1);
  EXPECT_EQ(r.text(0, "flow_name"), "a");
  EXPECT_EQ(r.integer(0, "cnms"), 2);
  EXPECT_EQ(r.integer(0, "congestion_points"), 2);
  EXPECT_EQ(r.integer(0, "first_ps"), 700);
  EXPECT_EQ(r.integer(0, "last_ps"), 900);
  EXPECT_DOUBLE_EQ(r.real(0, "mean_fb"), 30);
  EXPECT_DOUBLE_EQ(r.real(0, "max_fb"), 40);
  EXPECT_DOUBLE_EQ(r.real(0, "cnms_per_ms"), 2 * 1e9 / 4000);
  EXPECT_EQ(r.integer(1, "flow_id"), 2);
  EXPECT_EQ(r.integer(1, "cnms"), 1);
  EXPECT_DOUBLE_EQ(r.real(1, "max_fb"), 63);
}

TEST_F(Queries, CacheHitRateFromTheLastCounters) {
  RUN_OR_SKIP(r, "cache_hit_rate.sql", (Params{{"@run", int64_t{1}}}));
  ASSERT_EQ(r.rows.size(), 3u);
  const struct {
    const char* port;
    int64_t hits, misses, premature, reclaims;
    double rate;
  } expected[] = {{"port10", 30, 10, 2, 7, 0.75}, {"port11", 0, 4, 0, 0, 0.0}, {"all", 30, 14, 2, 7, 30.0 / 44}};
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.text(i, "port"), expected[i].port);
    EXPECT_EQ(r.integer(i, "hits"), expected[i].hits);
    EXPECT_EQ(r.integer(i, "misses"), expected[i].misses);
    EXPECT_EQ(r.integer(i, "premature_evictions"), expected[i].premature);
    EXPECT_EQ(r.integer(i, "background_reclaims"), expected[i].reclaims);
    EXPECT_DOUBLE_EQ(r.real(i, "hit_rate"), expected[i].rate);
  }
  RUN_OR_SKIP(none, "cache_hit_rate.sql", (Params{{"@run", int64_t{2}}}));
  EXPECT_TRUE(none.rows.empty());
}

TEST_F(Queries, RunWithTheSqlite3Shell) {
  const auto dir = testing::source_dir();
  if (!dir) GTEST_SKIP() << "db/queries not found; set FABRICSIM_SOURCE_DIR";
  if (std::system("command -v sqlite3 >/dev/null 2>&1") != 0) GTEST_SKIP() << "sqlite3 shell not installed";
  auto shell = [&](const std::string& params, const std::string& query) {
    const std::string command = "sqlite3 -csv -header '" + db_->str() + "' " + params + " '.read " +
                                (*dir / "db" / "queries" / query).string() + "'";
    std::string output;
    if (FILE* pipe = popen(command.c_str(), "r")) {
      char buffer[4096];
      size_t n;
      while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
      pclose(pipe);
    }
    return output;
  };
  EXPECT_EQ(shell("-cmd '.parameter set @run 1'", "drops_by_reason.sql"),
            "reason,drops,whole_frames,copies,first_ps,last_ps\n"
            "voq_tail,3,0,3,2050,2700\n"
            "header_pool,1,1,0,3600,3600\n");
  EXPECT_EQ(shell("-cmd '.parameter set @run 1' -cmd '.parameter set @from_ps 1000' "
                  "-cmd '.parameter set @to_ps 3000'",
                  "subflow_mean_throughput.sql"),
            "flow_id,flow_name,dst_port,frames,bytes,gbps\n"
            "1,a,10,2,200,800.0\n"
            "2,b,10,2,500,2000.0\n"
            "2,b,11,1,250,1000.0\n"
            "3,idle,12,0,0,0.0\n");
}

}  // namespace
}  // namespace fabric::db
