// A run in which nothing moves while traffic is pending is reported as a
// stall that names the blocked queues. The stall is real, not injected: with
// leaf.pause.qlow = 0 a paused lossless source is never sent GO (the pool
// cannot fall below zero), so the fan-in sources stay paused with frames
// queued once the fabric has drained.
#include <gtest/gtest.h>

#include <memory>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

Args fan_in(const TempDir& dir, const std::string& qlow, const std::string& time) {
  return Args()
      .opt("--config", write_two_leaf_ini(dir))
      .set("traffic.pattern=fanin")
      .set("traffic.fanin_sources=0,1,2,3,5,6,7")
      .set("traffic.fanin_dest=4")
      .set("classes.lossless_priorities=0")
      .set("leaf.pause.qlow=" + qlow)
      .opt("--time", time)
      .opt("--db", dir.file("stall.db"));
}

TEST(IntegrationStall, PauseNeverReleasedIsReportedAsAStallNamingTheQueues) {
  TempDir dir;
  const ProcResult r = run_fabricsim(fan_in(dir, "0", "2ms"));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_NE(r.err.find("stall"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("frames queued (priority 0 paused)"), std::string::npos) << r.err;
  Db db(dir.file("stall.db"));
  EXPECT_EQ(db.text("SELECT status FROM runs"), "failed");
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind = 'stall'"), 1);
  // Detected one stall timeout after the last movement, long before 2 ms.
  EXPECT_LT(db.integer("SELECT sim_time_ps FROM runs"), 1000 * kUs);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
}

TEST(IntegrationStall, SameFanInWithAWorkingGoThresholdIsNoStall) {
  TempDir dir;
  const ProcResult r = run_fabricsim(fan_in(dir, "90KB", "300us"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("stall.db"));
  EXPECT_EQ(db.text("SELECT status FROM runs"), "done");
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'go'"), 0);
}

}  // namespace
}  // namespace fabricsim_it
