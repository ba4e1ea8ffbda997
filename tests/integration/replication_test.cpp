// Hierarchical replication through surrogate ports (mechanism 8), end to end.
#include <gtest/gtest.h>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// A lossless broadcast at full load on one rack (159 destinations through up
// to 3 surrogate levels) for 2 ms: with the VLs ordered by level no buffer
// waits on itself, so nothing stalls and every frame reaches everyone.
TEST(Replication, LosslessBroadcastAtFullLoadOnOneRackNeverDeadlocks) {
  TempDir dir;
  const ProcResult r = run_fabricsim(Args()
                                         .set("topology.racks=1")
                                         .set("classes.lossless_priorities=0")
                                         .set("flow.b.kind=multicast")
                                         .set("flow.b.src=0")
                                         .set("flow.b.dst=1-159")
                                         .set("flow.b.rate_gbps=99")
                                         .opt("--time", "2ms")
                                         .opt("--db", dir.file("b.db")),
                                     300);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("b.db"));
  EXPECT_EQ(db.text("SELECT status FROM runs"), "done");
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind = 'stall'"), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  EXPECT_EQ(frames_not_delivered_to_each(db, "b", 1900 * kUs, 159), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM frames WHERE t_injected_ps >= 0"), 10000);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'pause' AND entity >= 'port160'"), 0)
      << "the surrogates' internal PAUSE was exercised";
  EXPECT_EQ(db.integer("SELECT max(surrogate_levels) FROM deliveries"), 3);
}

// The headline: a broadcast from port 0 to all 639 other ports of the 4-rack
// system reaches every port with every frame, through 4 surrogate levels.
TEST(Replication, BroadcastOnTheFullSystemReachesAll640Ports) {
  TempDir dir;
  const ProcResult r = run_fabricsim(Args()
                                         .set("flow.b.kind=multicast")
                                         .set("flow.b.src=0")
                                         .set("flow.b.dst=1-639")
                                         .set("flow.b.rate_gbps=99")
                                         .opt("--time", "100us")
                                         .opt("--db", dir.file("b.db")),
                                     300);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("b.db"));
  EXPECT_EQ(frames_not_delivered_to_each(db, "b", 70 * kUs, 639), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM frames WHERE t_injected_ps >= 0 AND t_injected_ps < 70000000"), 400);
  EXPECT_EQ(db.integer("SELECT count(DISTINCT dst_port) FROM deliveries"), 639);
  EXPECT_EQ(db.dump("SELECT DISTINCT surrogate_levels FROM deliveries ORDER BY 1"), "0\n1\n2\n3\n4\n");
  // The source's own leaf (ports 1-4) gets direct copies: no surrogate.
  EXPECT_EQ(db.integer("SELECT max(surrogate_levels) FROM deliveries WHERE dst_port BETWEEN 1 AND 4"), 0);
}

}  // namespace
}  // namespace fabricsim_it
