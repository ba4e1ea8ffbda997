// The backplane platform (E12) end to end: 802.3x removes every discard in
// every variant, discards without it under overload, one WLG to an idle sink
// gets its link's rate less the per-frame overhead, PAUSE frames go ahead of
// queued data and are never held back, and a run is deterministic.
#include <gtest/gtest.h>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// A study at a shorter time, recording every frame.
Args backplane(const std::string& study, const std::string& db, const std::string& time = "12ms") {
  return Args()
      .opt("--study", study)
      .opt("--time", time)
      .opt("--record", "frames")
      .opt("--db", db)
      .set("backplane.warmup=2ms");
}

int64_t discards(Db& db) { return db.integer("SELECT count(*) FROM drops WHERE reason = 'shared_memory'"); }

TEST(Backplane, NoDiscardWith8023xInAnyVariant) {
  TempDir dir;
  const std::string path = dir.file("e12.db");
  ASSERT_EQ(run_fabricsim(backplane("E12c", path)).exit_code, 0);
  for (const char* high : {"4KB", "16KB", "64KB", "256KB"}) {  // the threshold sweep at 1.5 MB
    const ProcResult r =
        run_fabricsim(backplane("E12a", path).set("backplane.pause=true").set(std::string("backplane.xoff=") + high));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  }
  Db db(path);
  EXPECT_EQ(db.integer("SELECT count(*) FROM runs WHERE status = 'done'"), 5);
  EXPECT_EQ(discards(db), 0);
  // Flow control acted in every run, and frames flowed.
  EXPECT_EQ(db.integer("SELECT count(DISTINCT run_id) FROM v_events WHERE kind = 'xoff' AND entity = 'switch'"), 5);
  EXPECT_EQ(db.integer("SELECT min(n) > 10000 FROM (SELECT count(*) AS n FROM deliveries GROUP BY run_id)"), 1);
  // The memory never passed what it holds.
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_run_totals WHERE metric = 'memory_peak_bytes' AND value > 32768 "
                       "AND run_id = 1"),
            0);
}

TEST(Backplane, DiscardsWithoutFlowControlUnderOverload) {
  TempDir dir;
  const std::string path = dir.file("e12b.db");
  const ProcResult r = run_fabricsim(backplane("E12b", path));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(path);
  EXPECT_GT(discards(db), 1000);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind IN ('pause', 'go', 'xoff', 'xon')"), 0);
  // Each discarded frame is whole, at the switch, and never delivered.
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops WHERE dst_port IS NOT NULL"), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops d JOIN deliveries v ON v.frame_id = d.frame_id"), 0);
}

// One WLG to an idle sink: its link is never idle, so the frame bytes it
// delivers are the link's rate less 20 B of preamble and gap per frame.
TEST(Backplane, ASingleWlgToAnIdleSinkGetsLineRateLessOverhead) {
  TempDir dir;
  const std::string path = dir.file("one.db");
  Args args =
      Args().opt("--config", dir.file("one.ini")).opt("--time", "10ms").opt("--record", "frames").opt("--db", path);
  {
    std::FILE* f = std::fopen(dir.file("one.ini").c_str(), "w");
    std::fputs("platform = backplane\n[flow.w]\nsrc = 0\ndst = 1\nclosed_loop = true\nmessage = exp:48:7KB:85KB\n", f);
    std::fclose(f);
  }
  const ProcResult r = run_fabricsim(args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(path);
  // Over [1 ms, 10 ms): wire bytes (frame + 20 B) delivered at 10 Gb/s.
  const double wire_gbps =
      db.real("SELECT sum(bytes + 20) * 8.0 / 9e9 * 1000 FROM deliveries WHERE t_delivered_ps >= 1e9");
  EXPECT_NEAR(wire_gbps, 10.0, 0.01);
  const double frame_gbps = db.real("SELECT sum(bytes) * 8.0 / 9e9 * 1000 FROM deliveries WHERE t_delivered_ps >= 1e9");
  const double mean_frame = db.real("SELECT avg(bytes) FROM deliveries WHERE t_delivered_ps >= 1e9");
  EXPECT_NEAR(frame_gbps, 10.0 * mean_frame / (mean_frame + 20), 0.01);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  // No contention: a frame's latency is its NIC and MAC buffers' wait, its
  // two serializations and cable delays; never more than a few frames' time.
  EXPECT_LT(db.integer("SELECT max(t_delivered_ps - t_created_ps) FROM deliveries"), 8 * kUs);
}

// Each XOFF the switch decides reaches every station within the frame then
// on the wire, the PAUSE frame's own time and the cable: ahead of queued
// data, and nothing holds a PAUSE frame back.
TEST(Backplane, PauseFramesGoAheadOfDataAndAreNeverPaused) {
  TempDir dir;
  const std::string path = dir.file("e12c.db");
  const ProcResult r = run_fabricsim(backplane("E12c", path));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(path);
  const int64_t decisions = db.integer("SELECT count(*) FROM v_events WHERE entity = 'switch'");
  ASSERT_GT(decisions, 100);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE entity LIKE 'station%'"), 4 * decisions);
  // (1518 + 20) B + (64 + 20) B at 10 Gb/s, plus 150 ns.
  const int64_t bound_ps = (1538 + 84) * 800 + 150'000;
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events s WHERE s.entity = 'switch' AND "
                       "(SELECT count(*) FROM v_events t WHERE t.entity LIKE 'station%' AND "
                       "t.kind = (CASE s.kind WHEN 'xoff' THEN 'pause' ELSE 'go' END) AND "
                       "t.t_ps >= s.t_ps AND t.t_ps <= s.t_ps + " +
                       std::to_string(bound_ps) + ") < 4"),
            0);
  // Each XOFF decision at or above High (16 KB), each XON at or below Low (8 KB).
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE (kind = 'xoff' AND value < 16384) OR "
                       "(kind = 'xon' AND value > 8192)"),
            0);
}

TEST(Backplane, SameSeedSameDatabase) {
  TempDir dir;
  for (const char* name : {"a.db", "b.db"}) {
    const ProcResult r = run_fabricsim(backplane("E12c", dir.file(name), "6ms"));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  }
  const auto a = database_contents(dir.file("a.db"));
  const auto b = database_contents(dir.file("b.db"));
  for (size_t t = 0; t < a.size(); ++t) EXPECT_TRUE(a[t] == b[t]) << a[t].substr(0, 40) << "... differs";
  const ProcResult other = run_fabricsim(backplane("E12c", dir.file("c.db"), "6ms").opt("--seed", "2"));
  ASSERT_EQ(other.exit_code, 0);
  EXPECT_NE(database_contents(dir.file("c.db"))[0], a[0]) << "another seed, other frames";
}

}  // namespace
}  // namespace fabricsim_it
