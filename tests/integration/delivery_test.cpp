// End-to-end delivery on a 2-leaf fabric at full load: every injected frame
// arrives exactly once, in order per subflow, no faster than physics allows,
// and each destination receives close to line rate (the fabric is
// over-provisioned 8:5, so a permutation must not congest it).
#include <gtest/gtest.h>

#include <memory>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

constexpr int64_t kRunPs = 200 * kUs;

struct RunDb {
  std::unique_ptr<TempDir> dir;
  std::string db;
};

class IntegrationDelivery : public ::testing::Test {
 protected:
  // Runs are shared by the tests of the suite (one fabricsim run per size mix).
  static const std::string& run_db(const std::string& frame_size) {
    RunDb& run = runs()[frame_size];
    if (!run.dir) {
      run.dir = std::make_unique<TempDir>();
      run.db = run.dir->file("delivery.db");
      const ProcResult r = run_fabricsim(
          two_leaf_shift().set("traffic.frame_size=" + frame_size).opt("--time", "200us").opt("--db", run.db));
      EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    }
    return run.db;
  }
  static void TearDownTestSuite() { runs().clear(); }
  static std::map<std::string, RunDb>& runs() {
    static std::map<std::string, RunDb> m;
    return m;
  }
  static std::vector<std::string> mixes() { return {"1522", "uniform:64:9216"}; }
};

TEST_F(IntegrationDelivery, RunCompletesWithoutDrops) {
  for (const std::string& mix : mixes()) {
    SCOPED_TRACE("frame_size=" + mix);
    Db db(run_db(mix));
    EXPECT_EQ(db.dump("SELECT run_id, status, sim_time_ps FROM runs"), "1|done|" + std::to_string(kRunPs) + "\n");
    EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
    // Shift 5: flow i goes from port i to port (i+5) mod 10, on the other leaf.
    EXPECT_EQ(db.dump("SELECT f.src_port, d.dst_port FROM flows f JOIN flow_dests d USING (run_id, flow_id) "
                      "WHERE (f.src_port + 5) % 10 <> d.dst_port OR f.src_port / 5 = d.dst_port / 5"),
              "");
    EXPECT_EQ(db.integer("SELECT count(*) FROM flows"), 10);
  }
}

TEST_F(IntegrationDelivery, EveryInjectedFrameDeliveredExactlyOnce) {
  for (const std::string& mix : mixes()) {
    SCOPED_TRACE("frame_size=" + mix);
    Db db(run_db(mix));
    const int64_t cutoff_ps = kRunPs - 20 * kUs;
    const std::string cutoff = std::to_string(cutoff_ps);
    // Enough traffic to mean something: full load for 180 us is ~1450 frames
    // of 1522 B per port (fewer with the mixed sizes, mean ~4.6 kB).
    const int64_t checked = db.integer("SELECT count(*) FROM frames WHERE t_injected_ps < " + cutoff);
    EXPECT_GT(checked, mix == "1522" ? 10 * 1400 : 10 * 400);
    EXPECT_EQ(frames_not_delivered_once(db, cutoff_ps), 0);
    EXPECT_EQ(db.integer("SELECT count(*) FROM (SELECT frame_id FROM deliveries GROUP BY frame_id "
                         "HAVING count(*) > 1)"),
              0);
    EXPECT_EQ(db.integer("SELECT count(*) FROM deliveries d LEFT JOIN frames f "
                         "ON f.run_id = d.run_id AND f.frame_id = d.frame_id WHERE f.frame_id IS NULL"),
              0);
    EXPECT_EQ(db.integer("SELECT count(*) FROM deliveries d JOIN frames f "
                         "ON f.run_id = d.run_id AND f.frame_id = d.frame_id WHERE f.t_injected_ps IS NULL"),
              0);
    // Frame ids are unique, and each delivery belongs to its frame's flow and
    // goes to that flow's destination.
    EXPECT_EQ(db.integer("SELECT count(*) - count(DISTINCT frame_id) FROM frames"), 0);
    EXPECT_EQ(db.integer("SELECT count(*) FROM deliveries d JOIN frames f USING (run_id, frame_id) "
                         "WHERE d.flow_id <> f.flow_id OR NOT EXISTS (SELECT 1 FROM flow_dests x "
                         "WHERE x.flow_id = d.flow_id AND x.dst_port = d.dst_port)"),
              0);
    // A delivery carries its frame's size and creation time.
    EXPECT_EQ(db.integer("SELECT count(*) FROM deliveries d JOIN frames f USING (run_id, frame_id) "
                         "WHERE d.bytes <> f.bytes OR d.t_created_ps <> f.t_created_ps"),
              0);
    // Causality: created <= injected < delivered.
    EXPECT_EQ(db.integer("SELECT count(*) FROM deliveries d JOIN frames f USING (run_id, frame_id) "
                         "WHERE NOT (f.t_created_ps <= f.t_injected_ps AND f.t_injected_ps < d.t_delivered_ps)"),
              0);
  }
}

TEST_F(IntegrationDelivery, DeliveryOrderFollowsCreationOrderPerSubflow) {
  for (const std::string& mix : mixes()) {
    SCOPED_TRACE("frame_size=" + mix);
    Db db(run_db(mix));
    ASSERT_GT(db.integer("SELECT count(*) FROM deliveries"), 1000);
    const std::string out_of_order = db.dump(
        "SELECT flow_id, dst_port, prev, frame_id FROM (SELECT d.flow_id, d.dst_port, d.frame_id, "
        "lag(d.frame_id) OVER (PARTITION BY d.flow_id, d.dst_port ORDER BY d.t_delivered_ps, d.rowid) AS prev "
        "FROM deliveries d) WHERE prev IS NOT NULL AND frame_id <= prev LIMIT 5");
    EXPECT_EQ(out_of_order, "") << "flow|dst|earlier delivered frame|later delivered frame";
    // Creation order is frame_id order at a source: check that too.
    EXPECT_EQ(db.integer("SELECT count(*) FROM (SELECT frame_id, t_created_ps, lag(t_created_ps) OVER "
                         "(PARTITION BY flow_id ORDER BY frame_id) AS prev FROM frames) "
                         "WHERE prev IS NOT NULL AND t_created_ps < prev"),
              0);
  }
}

TEST_F(IntegrationDelivery, LatencyAbovePhysicalMinimum) {
  // Two serializations at 100 Gb/s ((bytes + 20) * 8 bits at 10 ps/bit), two
  // 2 m CNA cables (10 ns each), and for another leaf two 40 m leaf-spine
  // cables (200 ns each).
  const std::string min_ps =
      "(2 * (v.bytes + 20) * 8 * 10 + 2 * 10000 + "
      "CASE WHEN ps.leaf_id <> pd.leaf_id THEN 2 * 200000 ELSE 0 END)";
  const std::string join =
      " FROM v_latency v JOIN ports ps ON ps.run_id = v.run_id AND ps.port_id = v.src_port "
      "JOIN ports pd ON pd.run_id = v.run_id AND pd.port_id = v.dst_port "
      "JOIN frames f ON f.run_id = v.run_id AND f.frame_id = v.frame_id ";
  for (const std::string& mix : mixes()) {
    SCOPED_TRACE("frame_size=" + mix);
    Db db(run_db(mix));
    EXPECT_EQ(db.integer("SELECT count(*)" + join), db.integer("SELECT count(*) FROM deliveries"));
    EXPECT_EQ(db.integer("SELECT count(*)" + join + "WHERE ps.leaf_id <> pd.leaf_id"),
              db.integer("SELECT count(*) FROM deliveries"));
    EXPECT_EQ(db.dump("SELECT v.frame_id, v.bytes, v.latency_ps, " + min_ps + join + "WHERE v.latency_ps < " + min_ps +
                      " OR v.t_delivered_ps - f.t_injected_ps < " + min_ps + " LIMIT 5"),
              "")
        << "frame|bytes|latency|minimum";
    if (mix != "1522") {  // the size mix really is mixed
      EXPECT_LT(db.integer("SELECT min(bytes) FROM frames"), 1000);
      EXPECT_GT(db.integer("SELECT max(bytes) FROM frames"), 8000);
      EXPECT_EQ(db.integer("SELECT count(*) FROM frames WHERE bytes < 64 OR bytes > 9216"), 0);
    }
  }
}

TEST_F(IntegrationDelivery, ReceiveThroughputNearLineRateInSecondHalf) {
  for (const std::string& mix : mixes()) {
    SCOPED_TRACE("frame_size=" + mix);
    Db db(run_db(mix));
    const std::map<int, double> rx = rx_gbps(db, kRunPs / 2, kRunPs);
    ASSERT_EQ(rx.size(), 10u);
    // At most line rate, plus one largest frame straddling the window start.
    const double slack = (9216 + 20) * 8 / (kRunPs / 2 * 1e-12) / 1e9;
    for (const auto& [port, gbps] : rx) {
      EXPECT_GE(gbps, 90.0) << "port " << port;
      EXPECT_LE(gbps, 100.0 + slack) << "port " << port;
    }
  }
}

TEST_F(IntegrationDelivery, LinkStatisticsRecordTheLoadOfEveryLink) {
  Db db(run_db("1522"));
  // 2 leaves x (5 CNA links each way + 32 spine links each way).
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_run_totals WHERE metric = 'utilization'"), 2 * (10 + 64));
  // Each CNA sends at line rate from t = 0: its link is busy all the time,
  // and no link is busier than that.
  EXPECT_GT(db.real("SELECT min(value) FROM v_run_totals WHERE metric = 'utilization' AND entity LIKE '%_from_cna'"),
            0.97);
  EXPECT_LE(db.real("SELECT max(value) FROM v_run_totals WHERE metric = 'utilization'"), 1.0);
  // A leaf puts 5 x 100G (1522 B frames, plus requests, ACKs and credits)
  // on 32 x 25G uplinks: 500/800 of them, a little more for control.
  const double uplinks =
      db.real("SELECT avg(value) FROM v_run_totals WHERE metric = 'utilization' AND entity LIKE '%_up'");
  EXPECT_GT(uplinks, 0.60);
  EXPECT_LT(uplinks, 0.68);
  // Bytes agree with messages: a CNA link carries 1542 B per frame on the wire.
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_run_totals b JOIN v_run_totals m USING (run_id, entity) "
                       "WHERE b.metric = 'bytes' AND m.metric = 'messages' AND b.entity LIKE '%_from_cna' "
                       "AND b.value <> m.value * 1542"),
            0);
}

TEST_F(IntegrationDelivery, ExplicitFlowsReceiveOfferedRate) {
  // Below line rate the fabric must carry exactly what is offered: a remote
  // flow at 50 Gb/s, a local one at 30 Gb/s, and a 20 Gb/s flow with a start
  // and a stop time.
  TempDir dir;
  const std::string db_path = dir.file("flows.db");
  const ProcResult r = run_fabricsim(Args()
                                         .opt("--config", write_two_leaf_ini(dir))
                                         .set("flow.a.src=0")
                                         .set("flow.a.dst=6")
                                         .set("flow.a.rate_gbps=50")
                                         .set("flow.a.frame_size=1522")
                                         .set("flow.b.src=1")
                                         .set("flow.b.dst=2")
                                         .set("flow.b.rate_gbps=30")
                                         .set("flow.b.frame_size=512")
                                         .set("flow.c.src=7")
                                         .set("flow.c.dst=3")
                                         .set("flow.c.rate_gbps=20")
                                         .set("flow.c.frame_size=choice:64,9216")
                                         .set("flow.c.start=50us")
                                         .set("flow.c.stop=150us")
                                         .opt("--time", "200us")
                                         .opt("--db", db_path));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(db_path);
  EXPECT_EQ(db.dump("SELECT name, src_port, offered_gbps, coalesce(frame_bytes, 'NULL'), start_ps, "
                    "coalesce(stop_ps, 'NULL') FROM flows ORDER BY name"),
            "a|0|50.0|1522|0|NULL\nb|1|30.0|512|0|NULL\nc|7|20.0|NULL|50000000|150000000\n");
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  // Frames created per flow: rate * time / ((bytes + 20) * 8), +-1.
  EXPECT_NEAR(db.integer("SELECT count(*) FROM frames WHERE src_port = 0"), 50e9 * 200e-6 / (1542 * 8), 1.5);
  EXPECT_NEAR(db.integer("SELECT count(*) FROM frames WHERE src_port = 1"), 30e9 * 200e-6 / (532 * 8), 1.5);
  // Flow c only creates frames inside [start, stop), and only of the two sizes.
  EXPECT_EQ(db.integer("SELECT count(*) FROM frames WHERE src_port = 7 AND "
                       "(t_created_ps < 50000000 OR t_created_ps >= 150000000 OR bytes NOT IN (64, 9216))"),
            0);
  EXPECT_GT(db.integer("SELECT count(*) FROM frames WHERE src_port = 7"), 20);
  // Offered bits of flow c over its 100 us are 20 Gb/s give or take one frame.
  EXPECT_NEAR(db.real("SELECT sum(bytes + 20) * 8.0 / 100e-6 / 1e9 FROM frames WHERE src_port = 7"), 20.0, 1.0);
  // Steady state (second half): what is offered arrives.
  std::map<int, double> rx = rx_gbps(db, 100 * kUs, 200 * kUs);
  EXPECT_NEAR(rx[6], 50.0, 0.5);
  EXPECT_NEAR(rx[2], 30.0, 0.5);
  EXPECT_NEAR(rx[3], 10.0, 1.0);  // 50 us of 20 Gb/s in a 100 us window
  EXPECT_EQ(rx.size(), 3u);
  // Unloaded fabric: the local flow's latency varies only by the control
  // hold-off (at 30 Gb/s of 512 B frames a VOQ's requests come every 142 ns,
  // within leaf.control.holdoff, 650 ns, of each other, and merge).
  EXPECT_LE(db.integer("SELECT max(latency_ps) - min(latency_ps) FROM v_latency WHERE dst_port = 2"), 650'000);
  EXPECT_GT(db.integer("SELECT min(latency_ps) FROM v_latency WHERE dst_port = 6"),
            db.integer("SELECT max(latency_ps) FROM v_latency WHERE dst_port = 2"));
}

}  // namespace
}  // namespace fabricsim_it
