// Multicast forwarding end to end on the E1/E2 fabric (5 leaves): fanout
// splitting, the packet cache and VOQ sync, read back from the database.
#include <gtest/gtest.h>

#include <map>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

constexpr double kOfferedGbps = 99;  // counting 20 B of preamble and gap per frame, as rx_gbps
constexpr int64_t kWarmup = 300 * kUs;
constexpr int64_t kEnd = 1000 * kUs;

std::map<int, double> run_multicast(const TempDir& dir, const std::string& study, Args extra = {}) {
  Args args = extra;
  args.opt("--study", study).opt("--time", "1ms").opt("--db", dir.file("mc.db"));
  const ProcResult r = run_fabricsim(args, 120);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("mc.db"));
  return rx_gbps(db, kWarmup, kEnd);
}

// Port 0's cache counter at the end of the run (the samples are cumulative).
double port0_cache_counter(Db& db, const std::string& metric) {
  return db.real("SELECT max(value) FROM v_samples WHERE entity = 'port0' AND metric = '" + metric + "'");
}

TEST(Multicast, EightCopiesAtFullRateWithTheCache) {
  TempDir dir;
  const std::map<int, double> rx = run_multicast(dir, "E1b");
  ASSERT_EQ(rx.size(), 8u);
  for (const auto& [port, gbps] : rx) EXPECT_GE(gbps, 0.95 * kOfferedGbps) << "subflow to port " << port;

  Db db(dir.file("mc.db"));
  EXPECT_EQ(db.text("SELECT kind FROM flows WHERE name = 'f1'"), "multicast");
  EXPECT_EQ(db.integer("SELECT count(*) FROM flow_dests WHERE flow_id = (SELECT flow_id FROM flows WHERE name = 'f1')"),
            8);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  // Every frame injected in the first 900 us reached all 8 destinations once.
  EXPECT_EQ(frames_not_delivered_to_each(db, "f1", 900 * kUs, 8), 0);
  // The source port's copies are nearly all hits: 7 of 8 per packet.
  const double hits = port0_cache_counter(db, "cache_hits");
  const double misses = port0_cache_counter(db, "cache_misses");
  EXPECT_GT(hits, 0);
  EXPECT_LT(misses, 0.01 * hits);
  // 128 entries hold every packet until its 8th copy: nothing live is
  // evicted, and the dead entries are reclaimed once fewer than 10 are free.
  EXPECT_EQ(port0_cache_counter(db, "cache_premature_evictions"), 0);
  EXPECT_GT(port0_cache_counter(db, "cache_background_reclaims"), 0.5 * hits / 7);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_samples WHERE entity = 'leaf0' AND metric = 'cache_entries'"), 90);
}

TEST(Multicast, EightCopiesShareThePortInterfaceWithoutTheCache) {
  TempDir dir;
  const std::map<int, double> rx = run_multicast(dir, "E1a");
  ASSERT_EQ(rx.size(), 8u);
  // One 130 Gb/s interface (8 cycles per 256 B packet: 116 Gb/s of packets)
  // carries every copy: about 1/8 of it each, the same for every subflow.
  for (const auto& [port, gbps] : rx) {
    EXPECT_GT(gbps, 0.10 * kOfferedGbps) << "subflow to port " << port;
    EXPECT_LT(gbps, 0.18 * kOfferedGbps) << "subflow to port " << port;
    EXPECT_NEAR(gbps, rx.begin()->second, 0.02 * rx.begin()->second) << "subflow to port " << port;
  }
  Db db(dir.file("mc.db"));
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0) << "lossless: PAUSE absorbs the overload";
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_samples WHERE metric LIKE 'cache%'"), 0);
}

TEST(Multicast, VoqSyncKeepsASmallCacheAtFullRate) {
  TempDir dir;
  const Args c32 = Args().set("leaf.cache.entries=32");
  const std::map<int, double> without = run_multicast(dir, "E2a", c32);
  ASSERT_EQ(without.size(), 8u);
  for (const auto& [port, gbps] : without) EXPECT_LT(gbps, 0.8 * kOfferedGbps) << "sync off, port " << port;
  {
    // The local copies run ahead and fill the cache with live entries:
    // writes evict them, and the remote copies miss.
    Db db(dir.file("mc.db"));
    EXPECT_GT(port0_cache_counter(db, "cache_premature_evictions"), 0);
    EXPECT_GT(port0_cache_counter(db, "cache_misses"), 0);
  }

  TempDir dir2;
  const std::map<int, double> with = run_multicast(dir2, "E2b", c32);
  ASSERT_EQ(with.size(), 8u);
  for (const auto& [port, gbps] : with) EXPECT_GE(gbps, 0.95 * kOfferedGbps) << "sync on, port " << port;
  Db db(dir2.file("mc.db"));
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'sync_suspend' AND entity = 'port0'"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'sync_resume' AND entity = 'port0'"), 0);
}

TEST(Multicast, SameSeedSameDatabaseContent) {
  TempDir dir;
  std::string dumps[2];
  for (int i = 0; i < 2; ++i) {
    const std::string path = dir.file("d" + std::to_string(i) + ".db");
    const ProcResult r = run_fabricsim(Args().opt("--study", "E2b").opt("--time", "200us").opt("--db", path));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    Db db(path);
    dumps[i] = db.dump("SELECT frame_id, dst_port, t_delivered_ps FROM deliveries ORDER BY 1, 2") +
               db.dump("SELECT t_ps, kind, entity, value FROM v_events ORDER BY 1, 2, 3, 4") +
               db.dump("SELECT t_ps, entity, metric, value FROM v_samples WHERE metric LIKE 'cache%' ORDER BY 1, 2, 3");
  }
  EXPECT_GT(dumps[0].size(), 100000u);
  EXPECT_EQ(dumps[0], dumps[1]);
}

TEST(Multicast, UnicastAndMulticastShareTheCrossbarInputByWeight) {
  // Port 0 sends a unicast flow to port 5 and, without the cache, a 4-copy
  // multicast flow to ports 6..9. The CNA link (100 Gb/s) is slower than the
  // interface (116 Gb/s of packets), so only the copies can overload it; the
  // rates are chosen so that each class asks more than its share. The
  // multicast weight then sets the share of interface bytes its copies take.
  TempDir dir;
  std::map<int, double> rx_by_weight[2];
  const int weights[2] = {30, 70};
  const char* unicast_rate[2] = {"88", "50"};
  const char* multicast_rate[2] = {"11", "25"};
  for (int i = 0; i < 2; ++i) {
    const Args args = Args()
                          .opt("--config", write_two_leaf_ini(dir))
                          .set("classes.lossless_priorities=0,1")
                          .set("leaf.header_pool.lossless=4096")
                          .set("leaf.cache.enable=false")
                          .set("leaf.crossbar.multicast_weight=" + std::to_string(weights[i]))
                          .set("flow.u.src=0")
                          .set("flow.u.dst=5")
                          .set(std::string("flow.u.rate_gbps=") + unicast_rate[i])
                          .set("flow.u.priority=1")
                          .set("flow.m.kind=multicast")
                          .set("flow.m.src=0")
                          .set("flow.m.dst=6,7,8,9")
                          .set(std::string("flow.m.rate_gbps=") + multicast_rate[i])
                          .opt("--time", "1ms")
                          .opt("--db", dir.file("w" + std::to_string(i) + ".db"));
    const ProcResult r = run_fabricsim(args, 120);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    Db db(dir.file("w" + std::to_string(i) + ".db"));
    rx_by_weight[i] = rx_gbps(db, kWarmup, kEnd);
  }
  for (int i = 0; i < 2; ++i) {
    const std::map<int, double>& rx = rx_by_weight[i];
    const double multicast_bytes = 4 * rx.at(6);  // 4 copies, each through the interface
    const double share = multicast_bytes / (multicast_bytes + rx.at(5));
    EXPECT_NEAR(share, weights[i] / 100.0, 0.05) << "weight " << weights[i];
  }
}

}  // namespace
}  // namespace fabricsim_it
