// PAUSE and QCN end to end (mechanisms 5-7), read back from the database.
#include <gtest/gtest.h>

#include <map>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// Gb/s (frame + 20 B) of each named flow over [from, to).
std::map<std::string, double> flow_gbps(Db& db, int64_t from_ps, int64_t to_ps) {
  std::map<std::string, double> out;
  const double seconds = static_cast<double>(to_ps - from_ps) * 1e-12;
  for (const auto& row :
       db.rows("SELECT f.name, sum(d.bytes + 20) FROM deliveries d JOIN flows f USING (run_id, flow_id) "
               "WHERE d.t_delivered_ps >= " +
               std::to_string(from_ps) + " AND d.t_delivered_ps < " + std::to_string(to_ps) + " GROUP BY f.name"))
    out[row[0]] = std::stod(row[1]) * 8 / seconds / 1e9;
  return out;
}

Args eight_to_one(const TempDir& dir) {
  Args a = Args().opt("--config", write_two_leaf_ini(dir)).set("classes.lossless_priorities=0");
  for (int src : {1, 2, 3, 5, 6, 7, 8, 9}) {
    const std::string name = "flow.s" + std::to_string(src);
    a.set(name + ".src=" + std::to_string(src)).set(name + ".dst=0");
  }
  return a;
}

TEST(Lossless, NoFrameDroppedUnderEightToOneOverloadForFiveMilliseconds) {
  for (const std::string position : {"off", "both"}) {
    SCOPED_TRACE("QCN " + position);
    TempDir dir;
    const ProcResult r = run_fabricsim(
        eight_to_one(dir).set("leaf.qcn.position=" + position).opt("--time", "5ms").opt("--db", dir.file("l.db")), 120);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    Db db(dir.file("l.db"));
    EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
    EXPECT_GT(db.integer("SELECT count(*) FROM deliveries"), 35000) << "port 0 busy for 5 ms";
    EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'pause'"), 8);
    EXPECT_EQ(frames_not_delivered_once(db, 4 * 1000 * kUs), 0) << "every frame injected by 4 ms arrived once";
  }
}

TEST(Lossless, SmallMulticastFramesAreHeldByHeaderPauseNotDropped) {
  // 64 B frames with 4 copies each: the header pool (291) fills long before
  // the payload pool reaches Qhi; PAUSE on headers must stop the source.
  TempDir dir;
  const ProcResult r = run_fabricsim(Args()
                                         .opt("--config", write_two_leaf_ini(dir))
                                         .set("classes.lossless_priorities=0")
                                         .set("flow.m.kind=multicast")
                                         .set("flow.m.src=0")
                                         .set("flow.m.dst=1,2,5,6")
                                         .set("flow.m.frame_size=64")
                                         .set("flow.u.src=7")
                                         .set("flow.u.dst=5")
                                         .opt("--time", "500us")
                                         .opt("--db", dir.file("h.db")),
                                     120);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("h.db"));
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'pause' AND entity = 'port0'"), 0);
}

// With every frame sampled and no CNM spacing, an ingress CP sees each
// multicast frame once, while the egress CPs of its 4 destinations each see
// a copy: inputs draw at most one CNM per frame, outputs up to four.
TEST(Qcn, AMulticastFrameDrawsAtMostOneCnmWithInputCps) {
  std::map<std::string, int64_t> cnms, frames;
  for (const std::string position : {"ingress", "egress"}) {
    TempDir dir;
    const ProcResult r = run_fabricsim(Args()
                                           .opt("--study", "E7a")
                                           .set("leaf.qcn.position=" + position)
                                           .set("leaf.qcn.interval=1B")
                                           .set("leaf.qcn.frames_per_cnm=1")
                                           .set("leaf.qcn.qeq_ingress=1KB")
                                           .set("leaf.qcn.qeq_egress=1KB")
                                           .opt("--time", "200us")
                                           .opt("--db", dir.file("c.db")),
                                       120);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    Db db(dir.file("c.db"));
    const std::string m1 = "(SELECT flow_id FROM flows WHERE name = 'm1')";
    cnms[position] = db.integer("SELECT count(*) FROM v_events WHERE kind = 'cnm' AND flow_id = " + m1);
    frames[position] = db.integer("SELECT count(*) FROM frames WHERE t_injected_ps >= 0 AND flow_id = " + m1);
  }
  EXPECT_GT(cnms["ingress"], 10);
  EXPECT_LE(cnms["ingress"], frames["ingress"]);
  EXPECT_GT(cnms["egress"], frames["egress"])
      << "several outputs sample the same frame: " << cnms["egress"] << " CNMs for " << frames["egress"] << " frames";
}

TEST(Qcn, InputCpsShareTheFanInFairlyOutputCpsDoNot) {
  std::map<std::string, std::map<std::string, double>> rx;
  for (const std::string study : {"E5a", "E5b"}) {
    TempDir dir;
    const ProcResult r =
        run_fabricsim(Args().opt("--study", study).opt("--time", "60ms").opt("--db", dir.file("q.db")), 120);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    Db db(dir.file("q.db"));
    rx[study] = flow_gbps(db, 20 * 1000 * kUs, 60 * 1000 * kUs);
  }
  for (const char* f : {"f1", "f2", "f3", "f4"}) EXPECT_NEAR(rx["E5b"][f], 2.5, 0.15) << "inputs, " << f;
  double low = 10, high = 0;
  for (const char* f : {"f1", "f2", "f3", "f4"}) {
    low = std::min(low, rx["E5a"][f]);
    high = std::max(high, rx["E5a"][f]);
  }
  EXPECT_GT(high - low, 0.5) << "outputs: unequal shares";
}

TEST(Qcn, OccupancySamplingSparesTheInnocentFlowArrivalSamplingDoesNot) {
  std::map<std::string, std::map<std::string, double>> rx;
  for (const std::string study : {"E6a", "E6b", "E6c", "E6d"}) {
    TempDir dir;
    const ProcResult r =
        run_fabricsim(Args().opt("--study", study).opt("--time", "60ms").opt("--db", dir.file("q.db")), 120);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    Db db(dir.file("q.db"));
    rx[study] = flow_gbps(db, 20 * 1000 * kUs, 60 * 1000 * kUs);
  }
  EXPECT_NEAR(rx["E6a"]["f6"] / rx["E6a"]["f1"], 7.0 / 3, 0.2) << "PAUSE only: the port's 7:3 mix";
  // Arrival sampling throttles the innocent f6 below its 7 Gb/s on every
  // seed; how far (0.35-2.3 times f1 over seeds 1-6) the seed decides: no
  // force pulls f6 to f1's rate (docs/studies/E5-E8.md, E6b). Seed 1: 5.45
  // Gb/s over 20-60 ms against 6.9 with occupancy sampling.
  EXPECT_LT(rx["E6b"]["f6"], 0.85 * rx["E6c"]["f6"]) << "arrival sampling throttles f6, occupancy sampling does not";
  EXPECT_GT(rx["E6c"]["f6"], 6.7) << "deterministic occupancy leaves f6 at 7 Gb/s";
  EXPECT_GT(rx["E6d"]["f6"], 6.7) << "random occupancy leaves f6 at 7 Gb/s";
  for (const std::string study : {"E6c", "E6d"}) EXPECT_NEAR(rx[study]["f1"], 2.5, 0.3) << study;
}

TEST(Qcn, RateLimiterStateIsRecorded) {
  TempDir dir;
  const ProcResult r =
      run_fabricsim(Args().opt("--study", "E6b").opt("--time", "20ms").opt("--db", dir.file("q.db")), 120);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("q.db"));
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'rate_change' AND entity = 'port5'"), 10);
  EXPECT_LT(db.real("SELECT min(value) FROM v_events WHERE kind = 'rate_change'"), 10.0);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'cnm' AND entity = 'port5.in'"), 0);
}

}  // namespace
}  // namespace fabricsim_it
