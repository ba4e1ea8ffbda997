// 7-to-1 fan-in overload on a 2-leaf fabric: with priority 0 lossless the
// ingress ports PAUSE their CNAs and nothing is dropped; with the default
// lossy class the same traffic drops frames. Either way the destination is
// kept busy at line rate.
#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <set>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

constexpr int64_t kRunPs = 300 * kUs;
const std::set<int> kSources{0, 1, 2, 3, 5, 6, 7};
constexpr int kDest = 4;

class IntegrationLossless : public ::testing::Test {
 protected:
  static const std::string& run_db(bool lossless) {
    std::unique_ptr<TempDir>& dir = lossless ? lossless_dir() : lossy_dir();
    static std::string paths[2];
    std::string& path = paths[lossless];
    if (!dir) {
      dir = std::make_unique<TempDir>();
      path = dir->file(lossless ? "lossless.db" : "lossy.db");
      // --config on a 2-leaf INI rather than --set over the default study:
      // see IntegrationCli.PatternOverrideOfDefaultStudy.
      Args args = Args()
                      .opt("--config", write_two_leaf_ini(*dir))
                      .set("traffic.pattern=fanin")
                      .set("traffic.fanin_sources=0,1,2,3,5,6,7")
                      .set("traffic.fanin_dest=4")
                      .opt("--time", "300us")
                      .opt("--db", path);
      if (lossless) args.set("classes.lossless_priorities=0");
      const ProcResult r = run_fabricsim(args);
      EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    }
    return path;
  }
  static std::unique_ptr<TempDir>& lossless_dir() {
    static std::unique_ptr<TempDir> d;
    return d;
  }
  static std::unique_ptr<TempDir>& lossy_dir() {
    static std::unique_ptr<TempDir> d;
    return d;
  }
  static void TearDownTestSuite() {
    lossless_dir().reset();
    lossy_dir().reset();
  }
};

TEST_F(IntegrationLossless, LosslessFaninDropsNothing) {
  Db db(run_db(true));
  EXPECT_EQ(db.dump("SELECT status, sim_time_ps FROM runs"), "done|" + std::to_string(kRunPs) + "\n");
  EXPECT_EQ(db.integer("SELECT count(*) FROM flows"), 7);
  EXPECT_EQ(db.integer("SELECT count(*) FROM flow_dests WHERE dst_port <> 4"), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  // 7 x 100 Gb/s offered for 300 us is ~17000 frames; only about one seventh
  // can leave, so most sources must have been held back.
  EXPECT_GT(db.integer("SELECT count(*) FROM frames WHERE t_injected_ps IS NOT NULL"), 2000);
  EXPECT_EQ(db.integer("SELECT count(*) FROM frames WHERE priority <> 0"), 0);
}

TEST_F(IntegrationLossless, LosslessFaninDeliversEveryFrameInjectedEarly) {
  Db db(run_db(true));
  // The fabric holds at most 7 lossless ingress pools (227 KB) and one egress
  // pool (140 KB): ~1.8 MB, drained at 100 Gb/s in ~142 us. So every frame
  // injected 150 us before the end must have arrived, exactly once.
  const int64_t cutoff_ps = kRunPs - 150 * kUs;
  EXPECT_GT(db.integer("SELECT count(*) FROM frames WHERE t_injected_ps < " + std::to_string(cutoff_ps)), 1000);
  EXPECT_EQ(frames_not_delivered_once(db, cutoff_ps), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM (SELECT frame_id FROM deliveries GROUP BY frame_id "
                       "HAVING count(*) > 1)"),
            0);
  // Every source gets a share of the destination.
  EXPECT_EQ(db.integer("SELECT count(DISTINCT f.src_port) FROM deliveries d JOIN frames f USING (run_id, frame_id)"),
            7);
}

TEST_F(IntegrationLossless, LosslessFaninSendsPauseAndGoToSources) {
  Db db(run_db(true));
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'pause'"), 0);
  // STOP and GO alternate per entity, starting with STOP; at most one
  // entity-level STOP is still pending at the end.
  const auto events =
      db.rows("SELECT entity, kind FROM v_events WHERE kind IN ('pause', 'go') ORDER BY entity, t_ps, seq");
  std::map<std::string, std::string> last;
  for (const auto& e : events) {
    const std::string prev = last.count(e[0]) ? last[e[0]] : "go";
    EXPECT_NE(prev, e[1]) << "two consecutive '" << e[1] << "' events for " << e[0];
    last[e[0]] = e[1];
  }
  // PAUSE goes to the overloaded sources only, never the destination's CNA
  // (which sends nothing). Entities name the port by its number.
  const std::regex port_re(R"((\d+)$)");
  std::set<int> paused;
  for (const auto& [entity, kind] : last) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(entity, m, port_re)) << entity;
    paused.insert(std::stoi(m[1]));
  }
  EXPECT_FALSE(paused.empty());
  for (int p : paused) EXPECT_TRUE(kSources.count(p)) << "PAUSE at port " << p;
  EXPECT_EQ(paused.count(kDest), 0u);
}

TEST_F(IntegrationLossless, LosslessFaninDestinationAtLineRate) {
  Db db(run_db(true));
  const std::map<int, double> rx = rx_gbps(db, kRunPs / 2, kRunPs);
  ASSERT_EQ(rx.size(), 1u);
  ASSERT_EQ(rx.begin()->first, kDest);
  EXPECT_GE(rx.begin()->second, 90.0);
  EXPECT_LE(rx.begin()->second, 100.0 + 1542.0 * 8 / 150e-6 / 1e9);
}

TEST_F(IntegrationLossless, LossyFaninDropsAndSendsNoPause) {
  Db db(run_db(false));
  EXPECT_EQ(db.text("SELECT status FROM runs"), "done");
  const int64_t drops = db.integer("SELECT count(*) FROM drops");
  EXPECT_GT(drops, 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind IN ('pause', 'go')"), 0);
  // A dropped frame exists in frames, was sent, and is never delivered.
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops x LEFT JOIN frames f USING (run_id, frame_id) "
                       "WHERE f.frame_id IS NULL OR f.t_injected_ps IS NULL OR x.flow_id <> f.flow_id"),
            0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops x WHERE x.dst_port IS NULL AND "
                       "x.frame_id IN (SELECT frame_id FROM deliveries)"),
            0);
  // Drops happen where the overload enters: at the source ports.
  for (const auto& row : db.rows("SELECT DISTINCT port_id FROM drops"))
    EXPECT_TRUE(kSources.count(std::stoi(row[0]))) << "drop at port " << row[0];
  // The lossy sources are never held back, so they inject far more frames
  // than the lossless run, and the destination still runs at line rate.
  Db lossless(run_db(true));
  EXPECT_GT(db.integer("SELECT count(*) FROM frames WHERE t_injected_ps IS NOT NULL"),
            2 * lossless.integer("SELECT count(*) FROM frames WHERE t_injected_ps IS NOT NULL"));
  std::map<int, double> rx = rx_gbps(db, kRunPs / 2, kRunPs);
  EXPECT_GE(rx[kDest], 90.0);
}

TEST_F(IntegrationLossless, OccupancySampledEveryIntervalAtEveryUserPort) {
  // record.sample_interval defaults to 10 us: 30 samples in 300 us, each of
  // the 10 user ports and the 2 surrogate ports at each, taken at multiples
  // of the interval.
  Db db(run_db(true));
  for (const char* metric : {"ingress_bytes", "egress_bytes"}) {
    SCOPED_TRACE(metric);
    const std::string of = std::string(" FROM v_samples WHERE metric = '") + metric + "'";
    EXPECT_EQ(db.integer("SELECT count(DISTINCT t_ps)" + of), 30);
    EXPECT_EQ(db.integer("SELECT count(*)" + of + " AND t_ps % 10000000 <> 0"), 0);
    EXPECT_EQ(db.dump("SELECT DISTINCT n FROM (SELECT count(DISTINCT entity) AS n" + of + " GROUP BY t_ps)"), "12\n");
  }
  // Paused sources hold their lossless pool between Qlow (90 KB) and the
  // pool (227 KB); the congested port's egress buffer is granted to them.
  const int64_t source_peak = db.integer(
      "SELECT CAST(max(value) AS INTEGER) FROM v_samples WHERE metric = 'ingress_bytes' AND entity = 'port5'");
  EXPECT_GT(source_peak, 90 * 1024);
  EXPECT_LE(source_peak, 227 * 1024);
  EXPECT_GT(db.integer("SELECT CAST(max(value) AS INTEGER) FROM v_samples WHERE metric = 'egress_bytes' "
                       "AND entity = 'port4'"),
            0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_samples WHERE metric = 'ingress_bytes' AND entity = 'port9' "
                       "AND value > 0"),
            0);  // port 9 sends nothing
}

TEST(IntegrationSamples, IntervalZeroRecordsNoOccupancy) {
  TempDir dir;
  const std::string path = dir.file("none.db");
  const ProcResult r = run_fabricsim(Args()
                                         .opt("--config", write_two_leaf_ini(dir))
                                         .set("traffic.pattern=fanin")
                                         .set("traffic.fanin_sources=0,5")
                                         .set("traffic.fanin_dest=4")
                                         .set("record.sample_interval=0")
                                         .opt("--time", "50us")
                                         .opt("--db", path));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(path);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_samples WHERE metric IN ('ingress_bytes', 'egress_bytes')"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM deliveries"), 0);
}

}  // namespace
}  // namespace fabricsim_it
