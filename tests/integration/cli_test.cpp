// The fabricsim command line end to end: listings, the E11 study, appending
// runs, the summary log level, SIGINT, the default study, and overriding a study.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

class IntegrationCli : public ::testing::Test {
 protected:
  static const std::string& e11_db() {
    static std::string path;
    if (!e11_dir()) {
      e11_dir() = std::make_unique<TempDir>();
      path = e11_dir()->file("e11.db");
      const ProcResult r = run_fabricsim(Args().opt("--study", "E11").opt("--db", path), 120);
      EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    }
    return path;
  }
  static std::unique_ptr<TempDir>& e11_dir() {
    static std::unique_ptr<TempDir> d;
    return d;
  }
  static void TearDownTestSuite() { e11_dir().reset(); }
};

TEST_F(IntegrationCli, ListParamsShowsKeysWithDefaults) {
  TempDir dir;
  const ProcResult r = run_fabricsim(Args().opt("--list-params").opt("--db", dir.file("x.db")));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  for (const char* key : {"leaf.clock_mhz", "topology.leaves", "sim.time", "classes.lossless_priorities",
                          "leaf.pause.qhi", "traffic.pattern", "flow.*.dst"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key;
  // The clock's line carries its default 454 (MHz).
  const size_t at = r.out.find("leaf.clock_mhz");
  ASSERT_NE(at, std::string::npos);
  const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
  EXPECT_NE(line.find("454"), std::string::npos) << line;
  EXPECT_NE(line.find("MHz"), std::string::npos) << line;
  EXPECT_FALSE(file_exists(dir.file("x.db"))) << "--list-params must not run a simulation";
}

TEST_F(IntegrationCli, ListStudies) {
  TempDir dir;
  const ProcResult r = run_fabricsim(Args().opt("--list-studies").opt("--db", dir.file("x.db")));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("E11"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("perm640"), std::string::npos) << r.out;
  // id, platform, title: the platform is the study's key, or that of the file it includes.
  EXPECT_NE(r.out.find("E10\tfabric\tE10 full-system broadcast, lossy"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("E10lossless\tfabric\tE10lossless full-system broadcast, lossless"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("E12a\tbackplane\tE12a backplane switch"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("E12c\tbackplane\tE12c backplane switch"), std::string::npos) << r.out;
  EXPECT_FALSE(file_exists(dir.file("x.db")));
}

// The published broadcast study in both classes: E10 lossy (experiments.md's
// reading), E10lossless the same flow (it includes E10.ini) on lossless
// priority 0.
TEST_F(IntegrationCli, BroadcastStudyShipsLossyAndLossless) {
  TempDir dir;
  for (const char* study : {"E10", "E10lossless"}) {
    const ProcResult r =
        run_fabricsim(Args().opt("--study", study).opt("--time", "1us").opt("--db", dir.file("e10.db")));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  }
  Db db(dir.file("e10.db"));
  EXPECT_EQ(
      db.dump(
          "SELECT study, instr(config, 'classes.lossless_priorities = 0' || char(10)) > 0 FROM runs ORDER BY run_id"),
      "E10|0\nE10lossless|1\n");
  EXPECT_EQ(
      db.integer("SELECT count(*) FROM runs WHERE instr(config, 'classes.lossless_priorities = ' || char(10)) > 0"), 1);
  EXPECT_EQ(db.dump("SELECT run_id, name, kind, src_port, priority FROM flows ORDER BY run_id"),
            "1|b|multicast|0|0\n2|b|multicast|0|0\n");
  EXPECT_EQ(db.integer("SELECT count(*) FROM flow_dests d JOIN flows f USING (run_id, flow_id) WHERE f.name = 'b'"),
            2 * 639);
}

// The summary's subflow table (issue 55): one row a subflow in the flows'
// order and then by destination port as a number (10 after 5, not after
// 1), every column where the header puts it whatever the names' lengths.
TEST_F(IntegrationCli, SummaryFlowTableIsAlignedAndSortedByNumber) {
  TempDir dir;
  const ProcResult r = run_fabricsim(
      Args().opt("--study", "E1b").opt("--time", "30us").opt("--record", "summary").opt("--db", dir.file("s.db")), 120);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const size_t header = r.out.find("  flow ");
  ASSERT_NE(header, std::string::npos) << r.out;
  std::istringstream table(r.out.substr(header));
  std::string line;
  std::getline(table, line);
  const size_t frames_end = line.find("frames") + 6;
  std::vector<int> dsts;
  while (std::getline(table, line) && line.find(" -> ") != std::string::npos) {
    dsts.push_back(std::stoi(line.substr(line.find(" -> ") + 4)));
    // The frame count ends under the header's "frames".
    ASSERT_GT(line.size(), frames_end) << line;
    EXPECT_NE(line[frames_end - 1], ' ') << line;
    EXPECT_EQ(line[frames_end], ' ') << line;
  }
  ASSERT_EQ(dsts.size(), 8u) << r.out;
  EXPECT_TRUE(std::is_sorted(dsts.begin(), dsts.end())) << r.out;
}

TEST_F(IntegrationCli, RecordsOneDoneRun) {
  Db db(e11_db());
  EXPECT_EQ(db.dump("SELECT run_id, study, status, sim_time_ps, seed, log_level FROM runs"),
            "1|E11|done|70000000|1|frames\n");
  EXPECT_GT(db.real("SELECT wall_seconds FROM runs"), 0.0);
  const std::string config = db.text("SELECT config FROM runs");
  EXPECT_NE(config.find("leaf.clock_mhz"), std::string::npos);
  EXPECT_NE(config.find("454"), std::string::npos);
  EXPECT_NE(config.find("flow.remote_9022.frame_size"), std::string::npos);
  // The full default topology: 640 user ports on 128 leaves.
  EXPECT_EQ(db.integer("SELECT count(*) FROM ports WHERE kind = 'user'"), 640);
  EXPECT_EQ(db.integer("SELECT count(DISTINCT leaf_id) FROM ports WHERE kind = 'user'"), 128);
  EXPECT_EQ(db.dump("SELECT port_id, leaf_id FROM ports WHERE port_id IN (0, 4, 5, 639) ORDER BY port_id"),
            "0|0\n4|0\n5|1\n639|127\n");
}

TEST_F(IntegrationCli, PortsTableListsSurrogatePorts) {
  // interfaces.md: one ports row per fabric port, kind 'user' or 'surrogate';
  // fabric.md: the surrogate port of leaf L has id 640 + L.
  Db db(e11_db());
  EXPECT_EQ(db.dump("SELECT count(*), min(port_id), max(port_id) FROM ports WHERE kind = 'surrogate'"),
            "128|640|767\n");
  EXPECT_EQ(db.integer("SELECT count(*) FROM ports WHERE kind = 'surrogate' AND leaf_id <> port_id - 640"), 0);
}

TEST_F(IntegrationCli, SixFlowsEachDeliveredOnce) {
  Db db(e11_db());
  EXPECT_EQ(db.dump("SELECT f.name, f.src_port, d.dst_port, f.frame_bytes, f.start_ps, "
                    "(SELECT count(*) FROM deliveries x WHERE x.flow_id = f.flow_id), "
                    "(SELECT count(*) FROM frames x WHERE x.flow_id = f.flow_id) "
                    "FROM flows f JOIN flow_dests d USING (run_id, flow_id) ORDER BY f.start_ps"),
            "local_512|0|1|512|0|1|1\n"
            "local_1522|0|1|1522|10000000|1|1\n"
            "local_9022|0|1|9022|20000000|1|1\n"
            "remote_512|0|5|512|30000000|1|1\n"
            "remote_1522|0|5|1522|40000000|1|1\n"
            "remote_9022|0|5|9022|50000000|1|1\n");
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM frames f JOIN flows l USING (run_id, flow_id) "
                       "WHERE f.t_created_ps <> l.start_ps OR f.bytes <> l.frame_bytes"),
            0);
}

TEST_F(IntegrationCli, LatencyOrderedByDistanceAndSize) {
  Db db(e11_db());
  std::map<std::string, int64_t> lat;
  for (const auto& row : db.rows("SELECT l.name, v.latency_ps FROM v_latency v JOIN flows l USING (run_id, flow_id)"))
    lat[row[0]] = std::stoll(row[1]);
  ASSERT_EQ(lat.size(), 6u);
  for (const int size : {512, 1522, 9022}) {
    const std::string s = std::to_string(size);
    // The remote path adds at least two 200 ns leaf-spine cables.
    EXPECT_GE(lat["remote_" + s] - lat["local_" + s], 400'000) << s << " B";
    // Serialized at 100 Gb/s by the CNA and again by the storing egress,
    // across two 10 ns CNA cables.
    EXPECT_GE(lat["local_" + s], 2 * (size + 20) * 80 + 20'000) << s << " B";
  }
  for (const std::string where : {"local_", "remote_"}) {
    // The egress stores a frame before forwarding it: each extra byte costs
    // at least one more byte time (80 ps at 100 Gb/s) after the CNA's.
    EXPECT_GE(lat[where + "1522"] - lat[where + "512"], (1522 - 512) * 80) << where;
    EXPECT_GE(lat[where + "9022"] - lat[where + "1522"], (9022 - 1522) * 80) << where;
  }
  // Zero load: a few microseconds at most, not queueing.
  EXPECT_LT(lat["remote_9022"], 10'000'000);
}

TEST_F(IntegrationCli, SecondRunIsAppended) {
  TempDir dir;
  const std::string path = dir.file("two_runs.db");
  copy_file(e11_db(), path);
  std::string run1;
  {
    Db db(path);
    run1 = db.dump("SELECT * FROM deliveries ORDER BY frame_id") + db.dump("SELECT * FROM frames ORDER BY frame_id");
  }
  const ProcResult r = run_fabricsim(two_leaf_shift().opt("--time", "5us").opt("--db", path));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(path);
  EXPECT_EQ(db.dump("SELECT run_id, study, status FROM runs ORDER BY run_id"), "1|E11|done\n2|perm640|done\n");
  EXPECT_EQ(db.dump("SELECT * FROM deliveries WHERE run_id = 1 ORDER BY frame_id") +
                db.dump("SELECT * FROM frames WHERE run_id = 1 ORDER BY frame_id"),
            run1);
  EXPECT_GT(db.integer("SELECT count(*) FROM frames WHERE run_id = 2"), 10);
  EXPECT_EQ(db.integer("SELECT count(*) FROM ports WHERE run_id = 2 AND kind = 'user'"), 10);
  EXPECT_EQ(db.integer("SELECT count(*) FROM ports WHERE run_id = 1 AND kind = 'user'"), 640);
  EXPECT_NE(db.text("SELECT config FROM runs WHERE run_id = 2").find("topology.leaves = 2"), std::string::npos);
}

TEST_F(IntegrationCli, SummaryLogLevelKeepsOnlySubflowSummaries) {
  TempDir dir;
  const std::string sum = dir.file("summary.db"), full = dir.file("frames.db");
  for (const auto& [path, level] : {std::pair{sum, "summary"}, std::pair{full, "frames"}}) {
    const ProcResult r = run_fabricsim(two_leaf_shift().opt("--time", "50us").opt("--record", level).opt("--db", path));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  }
  Db s(sum), f(full);
  EXPECT_EQ(s.dump("SELECT status, log_level FROM runs"), "done|summary\n");
  EXPECT_EQ(s.integer("SELECT count(*) FROM frames"), 0);
  EXPECT_EQ(s.integer("SELECT count(*) FROM deliveries"), 0);
  EXPECT_EQ(s.integer("SELECT count(*) FROM flows"), 10);
  EXPECT_EQ(s.integer("SELECT count(*) FROM subflow_summary WHERE frames > 0"), 10);
  const char* summary =
      "SELECT flow_id, dst_port, frames, bytes, first_delivered_ps, last_delivered_ps, "
      "latency_sum_ps, latency_min_ps, latency_max_ps FROM subflow_summary ORDER BY flow_id, dst_port";
  // The summary of a frames-level run is the aggregate of its deliveries...
  EXPECT_EQ(f.dump(summary), f.dump("SELECT d.flow_id, d.dst_port, count(*), sum(x.bytes), min(d.t_delivered_ps), "
                                    "max(d.t_delivered_ps), sum(d.t_delivered_ps - x.t_created_ps), "
                                    "min(d.t_delivered_ps - x.t_created_ps), max(d.t_delivered_ps - x.t_created_ps) "
                                    "FROM deliveries d JOIN frames x USING (run_id, frame_id) "
                                    "GROUP BY d.flow_id, d.dst_port ORDER BY d.flow_id, d.dst_port"));
  // ...and the log level changes what is recorded, not what is simulated.
  EXPECT_EQ(s.dump(summary), f.dump(summary));
  EXPECT_GT(f.integer("SELECT sum(frames) FROM subflow_summary"), 3000);
}

// Issue 40: --record is what --log-level was; the old name still works for a
// release, with a note, and the two cannot disagree.
TEST_F(IntegrationCli, TheOldNameOfRecordWorksWithANote) {
  TempDir dir;
  const ProcResult old_name = run_fabricsim(
      two_leaf_shift().opt("--time", "5us").opt("--log-level", "summary").opt("--db", dir.file("old.db")));
  ASSERT_TRUE(old_name.exited && old_name.exit_code == 0) << old_name.describe();
  EXPECT_NE(old_name.err.find("fabricsim: note: --log-level is now --record"), std::string::npos) << old_name.err;
  EXPECT_EQ(Db(dir.file("old.db")).text("SELECT log_level FROM runs"), "summary");
  const ProcResult both = run_fabricsim(two_leaf_shift()
                                            .opt("--time", "5us")
                                            .opt("--log-level", "summary")
                                            .opt("--record", "frames")
                                            .opt("--db", dir.file("both.db")));
  EXPECT_EQ(both.exit_code, 2) << both.describe();
  EXPECT_NE(both.err.find("--log-level is the old name of --record: give one"), std::string::npos) << both.err;
  const ProcResult bad = run_fabricsim(two_leaf_shift().opt("--log-level", "all").opt("--db", dir.file("bad.db")));
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.err.find("--log-level has value 'all'; allowed: frames, summary"), std::string::npos) << bad.err;
}

// Issue 40: leaf.coalesce_control is now leaf.control.merge_queued (beside
// leaf.control.coalesce, the hold-off); the old name works for a release.
TEST_F(IntegrationCli, ARenamedKeyWorksByItsOldNameWithANote) {
  TempDir dir;
  const ProcResult r = run_fabricsim(
      two_leaf_shift().opt("--time", "5us").set("leaf.coalesce_control=false").opt("--db", dir.file("renamed.db")));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.err.find("fabricsim: note: key 'leaf.coalesce_control' is now 'leaf.control.merge_queued'; the old "
                       "name is accepted until the next release"),
            std::string::npos)
      << r.err;
  Db db(dir.file("renamed.db"));
  EXPECT_EQ(db.dump("SELECT value, source FROM run_params WHERE key = 'leaf.control.merge_queued'"), "false|set\n");
  EXPECT_EQ(db.integer("SELECT count(*) FROM run_params WHERE key = 'leaf.coalesce_control'"), 0);
}

TEST_F(IntegrationCli, SigintMarksRunInterrupted) {
  TempDir dir;
  const std::string path = dir.file("sigint.db");
  // Stopped long before the 6 GB a whole second would write (record.max_db_bytes).
  const Background bg =
      start_fabricsim(two_leaf_shift().opt("--time", "1s").set("record.max_db_bytes=8GB").opt("--db", path), dir);
  // Wait until the run row exists (the model is being built), then let it
  // simulate for a while.
  bool running = false;
  for (int i = 0; i < 200 && !running; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    try {
      if (file_exists(path)) running = Db(path).text("SELECT status FROM runs") == "running";
    } catch (const std::exception&) {
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ASSERT_EQ(::kill(bg.pid, SIGINT), 0);
  const ProcResult r = wait_fabricsim(bg, 60);
  EXPECT_TRUE(running) << "no 'running' row while simulating";
  ASSERT_TRUE(r.exited) << "SIGINT should stop the run cleanly, not kill it: " << r.describe();
  EXPECT_NE(r.exit_code, 0) << r.describe();
  EXPECT_LT(r.wall_seconds, 30.0);
  Db db(path);
  EXPECT_EQ(db.text("SELECT status FROM runs"), "interrupted");
  const int64_t reached = db.integer("SELECT sim_time_ps FROM runs");
  EXPECT_GT(reached, 0);
  EXPECT_LT(reached, 1'000'000'000'000);
  EXPECT_GT(db.real("SELECT wall_seconds FROM runs"), 0.5);
  // What was simulated so far is in the database, consistently.
  EXPECT_GT(db.integer("SELECT count(*) FROM frames"), 1000);
  EXPECT_GT(db.integer("SELECT count(*) FROM deliveries"), 1000);
  EXPECT_LE(db.integer("SELECT max(t_created_ps) FROM frames"), reached);
  EXPECT_LE(db.integer("SELECT max(t_delivered_ps) FROM deliveries"), reached);
  EXPECT_EQ(frames_not_delivered_once(db, reached - 20 * kUs), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM subflow_summary WHERE frames > 0"), 10);
}

TEST_F(IntegrationCli, PatternOverrideOfAStudy) {
  // Study perm640 sets a permutation pattern; overriding its pattern with
  // --set must run the new pattern (the study's own keys are no typos).
  TempDir dir;
  const std::string path = dir.file("fanin.db");
  const ProcResult r = run_fabricsim(two_leaf()
                                         .set("traffic.pattern=fanin")
                                         .set("traffic.fanin_sources=0,1,5")
                                         .set("traffic.fanin_dest=4")
                                         .opt("--time", "5us")
                                         .opt("--db", path));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(path);
  EXPECT_EQ(db.dump("SELECT f.src_port, d.dst_port FROM flows f JOIN flow_dests d USING (run_id, flow_id) "
                    "ORDER BY f.src_port"),
            "0|4\n1|4\n5|4\n");
}

}  // namespace
}  // namespace fabricsim_it

namespace fabricsim_it {
namespace {

TEST(IntegrationCliDefault, NoStudyNoConfigRunsE11) {
  TempDir dir;
  const ProcResult r = run_fabricsim(Args().opt("--db", dir.file("default.db")));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("study E11"), std::string::npos) << r.out;
  Db db(dir.file("default.db"));
  EXPECT_EQ(db.dump("SELECT study, status FROM runs"), "E11|done\n");
  EXPECT_EQ(db.integer("SELECT count(*) FROM deliveries"), 6);
  // Run totals land in samples: at least each frame in and out, and two
  // packets plus request, grant and ACK for each.
  EXPECT_EQ(db.integer("SELECT value FROM v_run_totals WHERE entity = 'fabric' AND metric = 'frames_delivered'"), 6);
  EXPECT_GE(db.integer("SELECT value FROM v_run_totals WHERE entity = 'fabric' AND metric = 'link_messages'"), 6 * 2);
  // ... and by kind, adding up to the total.
  EXPECT_EQ(db.integer("SELECT sum(value) FROM v_run_totals WHERE entity = 'fabric' AND metric LIKE "
                       "'link\\_messages\\_%' ESCAPE '\\'"),
            db.integer("SELECT value FROM v_run_totals WHERE entity = 'fabric' AND metric = 'link_messages'"));
  EXPECT_EQ(db.integer("SELECT value FROM v_run_totals WHERE entity = 'fabric' AND metric = 'link_messages_frame'"),
            12);
}

// SQLite takes "", ":memory:" and URIs (file::memory:, ?mode=memory) for a
// database that vanishes with the process: a run there would report "done"
// and be gone. A directory, or a path too long to open, cannot keep it
// either. Each is refused, the path shortened in the message; --check-db
// (the sweep runner's check) follows the same rule.
TEST(IntegrationCliDefault, DatabasePathThatCannotKeepTheRunIsRefused) {
  TempDir dir;
  for (const std::string& path : {std::string(), std::string(":memory:"), std::string("file::memory:"),
                                  std::string("file:x?mode=memory"), dir.path(), std::string(5000, 'd')}) {
    SCOPED_TRACE(path.substr(0, 80));
    const ProcResult r = run_fabricsim(two_leaf().opt("--time", "1us").opt("--db", path));
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_NE(r.err.find("--db has value '" + path.substr(0, 80)), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 400u);
    EXPECT_EQ(r.out.find("done"), std::string::npos) << r.out;
    const ProcResult check = run_fabricsim(Args().opt("--check-db", path));
    EXPECT_TRUE(check.exited && check.exit_code == 2) << check.describe();
    EXPECT_NE(check.err.find("--db has value '" + path.substr(0, 80)), std::string::npos) << check.err;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "nothing written";
  const ProcResult fine = run_fabricsim(Args().opt("--check-db", dir.file("runs.db")));
  EXPECT_TRUE(fine.exited && fine.exit_code == 0 && fine.err.empty()) << fine.describe();
  EXPECT_FALSE(file_exists(dir.file("runs.db"))) << "--check-db only checks";
}

}  // namespace
}  // namespace fabricsim_it
