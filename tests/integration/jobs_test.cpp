// Closed-loop jobs on the fabric, checked against the alpha-beta cost model
// by hand (issue 54): a ring all-reduce of S bytes over n ranks takes at
// least 2(n-1)(a + S/(nB)); at large S its busbw comes within 5 % of the
// path's bottleneck (the CNA link) times the frame efficiency, and at small
// S its time is the step count times the zero-load latency of one frame
// (E11's measurement, made here on the same fabric). A multicast all-gather
// sends each shard into each other leaf once, counted on the leaf-spine links.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// One rack of 8 leaves, 5 user ports each (ports 0-39; port p on leaf p / 5).
// A configuration file, so that no study's flows come along.
Args eight_leaves(const TempDir& dir, const std::string& db, const std::string& time = "50ms") {
  const std::string ini = dir.file("eight_leaves.ini");
  std::ofstream(ini) << "[topology]\nracks = 1\nleaves = 8\n";
  Args a;
  a.opt("--config", ini).opt("--db", dir.file(db)).opt("--time", time);
  return a;
}

struct JobResult {
  int64_t time_ps = -1;
  double busbw_gbps = -1;
};

JobResult run_job(const TempDir& dir, const std::string& db, Args args) {
  const ProcResult r = run_fabricsim(args, 300);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db d(dir.file(db));
  EXPECT_EQ(d.integer("SELECT count(*) FROM jobs WHERE end_ps IS NULL"), 0);
  return {d.integer("SELECT time_ps FROM jobs"), d.real("SELECT busbw_gbps FROM jobs")};
}

Args ring_allreduce(const TempDir& dir, const std::string& db, const std::string& bytes) {
  Args a = eight_leaves(dir, db);
  a.set("job.ar.ranks=0,5,10,15,20,25,30,35").set("job.ar.collective=allreduce").set("job.ar.algorithm=ring");
  a.set("job.ar.bytes=" + bytes);
  return a;
}

// The zero-load latency of one frame of `bytes` from port 0 to port `dst`
// (5: leaf 0 to leaf 1; 1: the same leaf), creation to delivery: E11's
// figure on this fabric.
int64_t zero_load_latency(const TempDir& dir, int bytes, int dst = 5) {
  const std::string db = "e11_" + std::to_string(bytes) + "_to_" + std::to_string(dst) + ".db";
  Args a = eight_leaves(dir, db, "100us");
  a.set("flow.one.src=0").set("flow.one.dst=" + std::to_string(dst)).set("flow.one.frames=1");
  a.set("flow.one.frame_size=" + std::to_string(bytes));
  const ProcResult r = run_fabricsim(a, 120);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db d(dir.file(db));
  return d.integer("SELECT t_delivered_ps - t_created_ps FROM deliveries");
}

TEST(JobsOnTheFabric, RingAllReduceAtLargeSizeRunsAtTheBottleneckTimesTheFrameEfficiency) {
  TempDir dir;
  const int n = 8;
  const double size = 16.0 * 1024 * 1024;
  const JobResult j = run_job(dir, "large.db", ring_allreduce(dir, "large.db", "16MB"));
  // 1500 B of payload in 1518 B frames, 20 B of preamble and gap each.
  const double ceiling = 100.0 * 1500 / (1518 + 20);
  EXPECT_LE(j.busbw_gbps, ceiling * 1.0001);
  EXPECT_GE(j.busbw_gbps, 0.95 * ceiling);
  // The alpha-beta bound with a = 0: 2(n-1) S/(nB), B the ceiling.
  const double bandwidth_bound_ps = 2.0 * (n - 1) * size / n * 8 / ceiling * 1e3;
  EXPECT_GE(double(j.time_ps), bandwidth_bound_ps);
}

TEST(JobsOnTheFabric, RingAllReduceAtSmallSizeTakesItsStepsTimesTheZeroLoadLatency) {
  TempDir dir;
  const int n = 8;
  // 1 KB shards: every step is one 1042 B frame from each rank to the next leaf.
  const int64_t latency = zero_load_latency(dir, 1024 + 18);
  ASSERT_GT(latency, 0);
  const JobResult j = run_job(dir, "small.db", ring_allreduce(dir, "small.db", "8KB"));
  const double steps = 2.0 * (n - 1);
  EXPECT_GE(double(j.time_ps), steps * latency * 0.999) << "latency " << latency;
  EXPECT_LE(double(j.time_ps), steps * latency * 1.02) << "latency " << latency;
  Db d(dir.file("small.db"));
  EXPECT_EQ(d.integer("SELECT count(DISTINCT step) FROM job_operations"), 2 * (n - 1));
}

// Bytes of frames each all-gather put on leaf-to-spine links, against the
// count by hand: the ring sends shard s from rank to rank, crossing the
// fabric at every hop between leaves; the multicast all-gather sends each
// shard into every other leaf once (a surrogate port replicates it there).
TEST(JobsOnTheFabric, MulticastAllGatherEntersEachLeafOncePerShardWhereTheRingEntersItPerRank) {
  TempDir dir;
  // Ranks on 4 leaves, 3 of them on leaf 0 and one on each other leaf
  // pair, in an order that makes the ring cross leaves often.
  const std::vector<int> ports{0, 5, 1, 10, 2, 15, 6, 11};
  const int n = static_cast<int>(ports.size());
  std::string list;
  for (int p : ports) list += (list.empty() ? "" : ",") + std::to_string(p);
  const int64_t shard = 3000;  // two 1518 B frames
  const int64_t shard_frame_bytes = 2 * 1518;
  const auto uplink_bytes = [&](const std::string& db, const std::string& algorithm) {
    Args a = eight_leaves(dir, db);
    a.set("job.ag.ranks=" + list).set("job.ag.collective=allgather").set("job.ag.algorithm=" + algorithm);
    a.set("job.ag.bytes=" + std::to_string(shard * n));
    const JobResult j = run_job(dir, db, a);
    EXPECT_GT(j.time_ps, 0);
    Db d(dir.file(db));
    return d.integer(
        "SELECT coalesce(sum(t.value), 0) FROM totals t JOIN entities e USING (run_id, entity_id) "
        "WHERE t.metric = 'data_bytes' AND e.name GLOB 'leaf*_spine*_up'");
  };
  const auto leaf = [](int port) { return port / 5; };
  int64_t ring_crossings = 0;
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < n - 1; ++k) ring_crossings += leaf(ports[(r + k) % n]) != leaf(ports[(r + k + 1) % n]);
  std::set<int> leaves;
  for (int p : ports) leaves.insert(leaf(p));
  int64_t multicast_crossings = 0;
  for (int r = 0; r < n; ++r) multicast_crossings += static_cast<int64_t>(leaves.size()) - 1;
  const int64_t ring = uplink_bytes("ring.db", "ring");
  const int64_t multicast = uplink_bytes("mc.db", "multicast");
  EXPECT_EQ(ring, ring_crossings * shard_frame_bytes);
  EXPECT_EQ(multicast, multicast_crossings * shard_frame_bytes);
  EXPECT_LT(multicast, ring);
}

// Spread trees make a source's later copies of a frame find some packets
// in the multicast cache (written by its earlier copies) after others that
// missed. Such a copy goes on only when the cache's clock looks at it: the
// model once forgot to wake the clock after a missed packet, so the copy
// waited for whatever woke the clock next (16 MB: a stall at 2.48 ms).
// The invariant 'a multicast copy waiting in the cache has a wake coming'
// checks every such wait; with the wake left out it breaks at 3.4 us here.
TEST(JobsOnTheFabric, SpreadTreeCopiesThatHitTheCacheAfterAMissAreWokenAndTheJobRunsAtTheLinkCeiling) {
  TempDir dir;
  Args a;
  a.opt("--study", "allgather64").opt("--db", dir.file("spread.db")).opt("--record", "summary");
  a.set("job.ag.algorithm=multicast").set("job.ag.bytes=2MB").set("multicast.leaf_order=spread");
  const JobResult j = run_job(dir, "spread.db", a);
  // 63 shards of 32 KB into each rank's 100 Gb/s link: busbw within 5 % of
  // the link's ceiling after framing (97.53 Gb/s).
  EXPECT_GT(j.busbw_gbps, 0.95 * 100 * 1500 / 1538.0);
  Db d(dir.file("spread.db"));
  EXPECT_EQ(d.text("SELECT status FROM runs"), "done");
}

TEST(JobsOnTheFabric, ASecondJobSharesTheFabricAndBothFinish) {
  TempDir dir;
  Args a = eight_leaves(dir, "two.db");
  a.set("job.a.ranks=0,5,10,15").set("job.a.collective=alltoall").set("job.a.bytes=400KB");
  a.set("job.b.ranks=1,6,11,16").set("job.b.collective=allreduce").set("job.b.bytes=400KB").set("job.b.start=5us");
  const ProcResult r = run_fabricsim(a, 300);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db d(dir.file("two.db"));
  EXPECT_EQ(d.dump("SELECT name, collective, ranks, end_ps IS NOT NULL FROM jobs ORDER BY job_id"),
            "a|alltoall|4|1\nb|allreduce|4|1\n");
  EXPECT_EQ(d.integer("SELECT start_ps FROM jobs WHERE name = 'b'"), 5 * kUs);
  // Every op of both jobs completed, and no op ended before it started.
  EXPECT_EQ(d.integer("SELECT count(*) FROM job_operations WHERE end_ps IS NULL OR end_ps < start_ps"), 0);
  // The run ends when the last job does.
  EXPECT_EQ(d.integer("SELECT sim_time_ps >= (SELECT max(end_ps) FROM jobs) FROM runs"), 1);
  EXPECT_LT(d.integer("SELECT sim_time_ps FROM runs"), 50'000 * kUs);
}

// LogGOPSim's example schedule (tests/data/goal/binary_tree_16.goal): a
// binomial broadcast of 1 B from rank 0 over 16 ranks, 4 levels deep; here
// each rank on a port of its own, 4 leaves.
TEST(JobsOnTheFabric, AGoalScheduleRunsToItsEnd) {
  TempDir dir;
  // $FABRICSIM_SOURCE_DIR (CTest sets it), else the tree this file is in.
  const char* source = std::getenv("FABRICSIM_SOURCE_DIR");
  const std::filesystem::path root = source ? std::filesystem::path(source)
                                            : std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
  const std::string goal = (root / "tests" / "data" / "goal" / "binary_tree_16.goal").string();
  Args a = eight_leaves(dir, "goal.db");
  a.set("job.g.ranks=0-15").set("job.g.collective=goal").set("job.g.schedule=" + goal);
  const ProcResult r = run_fabricsim(a, 120);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db d(dir.file("goal.db"));
  EXPECT_EQ(d.dump("SELECT collective, ranks, operations, completed_operations, bytes IS NULL FROM jobs"),
            "goal|16|30|30|1\n");
  // Every rank but 0 receives once, after its parent sent. Its deepest
  // path, 0 -> 1 -> 3 -> 7 -> 15, is two hops within leaf 0 and two between
  // leaves (leaf 0 -> 1 -> 3): at least their 64 B frames' zero-load latencies.
  const int64_t local = zero_load_latency(dir, 64, 1);
  const int64_t remote = zero_load_latency(dir, 64, 5);
  EXPECT_GE(d.integer("SELECT time_ps FROM jobs"), 2 * local + 2 * remote);
  EXPECT_EQ(d.integer("SELECT count(*) FROM job_operations WHERE kind = 'recv'"), 15);
  EXPECT_EQ(d.integer("SELECT count(*) FROM job_operations o JOIN job_operations s ON s.kind = 'send' "
                      "AND s.rank = o.peer AND s.peer = o.rank WHERE o.kind = 'recv' AND o.end_ps < s.start_ps"),
            0);
}

// Jobs on partitions served by 1, 2 and 3 threads: the same database, row
// for row (a rank's state is touched only by its port's partition).
TEST(JobsOnTheFabric, TheSameDatabaseOnAnyNumberOfThreads) {
  TempDir dir;
  std::vector<std::vector<std::string>> runs;
  for (const std::string threads : {"1", "2", "3"}) {
    const std::string db = "t" + threads + ".db";
    Args a = eight_leaves(dir, db);
    a.set("sim.threads=" + threads).set("job.ar.ranks=0-39").set("job.ar.algorithm=tree").set("job.ar.bytes=256KB");
    a.set("job.ag.ranks=0,7,13,21,39").set("job.ag.collective=allgather").set("job.ag.algorithm=multicast");
    a.set("job.ag.bytes=64KB").set("job.ag.start=3us");
    const ProcResult r = run_fabricsim(a, 120);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    runs.push_back(database_contents(dir.file(db)));
  }
  ASSERT_EQ(runs[0].size(), runs[1].size());
  for (size_t t = 0; t < runs[0].size(); ++t) {
    EXPECT_EQ(runs[0][t], runs[1][t]) << "table " << t << ", 2 threads";
    EXPECT_EQ(runs[0][t], runs[2][t]) << "table " << t << ", 3 threads";
  }
  Db d(dir.file("t1.db"));
  EXPECT_EQ(d.integer("SELECT count(*) FROM jobs WHERE end_ps IS NOT NULL"), 2);
}

// On the lossy class a tree all-reduce's 2-to-1 merges overflow VOQs and
// drop frames its ranks wait for: the run ends once nothing is left in
// flight (not at sim.time), the job unfinished, and says why.
TEST(JobsOnTheFabric, AJobWaitingForDroppedFramesEndsTheRunAndSaysWhy) {
  TempDir dir;
  const auto tree = [&](const std::string& db) {
    Args a = eight_leaves(dir, db, "1s");
    a.set("job.ar.ranks=0,5,10,15,20,25,30,35").set("job.ar.algorithm=tree").set("job.ar.bytes=1MB");
    return a;
  };
  const ProcResult r = run_fabricsim(tree("lost.db"), 120);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("not finished"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("waits for frames the fabric dropped"), std::string::npos) << r.out;
  Db d(dir.file("lost.db"));
  EXPECT_GT(d.integer("SELECT count(*) FROM drops"), 0);
  EXPECT_EQ(d.integer("SELECT count(*) FROM jobs WHERE end_ps IS NULL AND completed_operations < operations"), 1);
  EXPECT_LT(d.integer("SELECT sim_time_ps FROM runs"), 1000 * kUs);
  // Lossless, the same job finishes.
  const ProcResult lossless = run_fabricsim(tree("lossless.db").set("classes.lossless_priorities=0"), 120);
  ASSERT_TRUE(lossless.exited && lossless.exit_code == 0) << lossless.describe();
  Db l(dir.file("lossless.db"));
  EXPECT_EQ(l.integer("SELECT count(*) FROM jobs WHERE end_ps IS NOT NULL"), 1);
  EXPECT_EQ(l.integer("SELECT count(*) FROM drops"), 0);
}

// Bad job input: exit 2, the key named, nothing run.
TEST(JobsOnTheFabric, BadJobInputIsRefusedNamingTheKey) {
  TempDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"job.x.ranks=0,0"}, "job.x.ranks"},
      {{"job.x.ranks=0,700"}, "job.x.ranks"},
      {{"job.x.ranks=0,1,2", "job.x.collective=allgather", "job.x.algorithm=recursive_doubling"}, "job.x.ranks"},
      {{"job.x.ranks=0,1", "job.x.collective=broadcast", "job.x.algorithm=ring"}, "job.x.algorithm"},
      {{"job.x.ranks=0,1", "job.x.collective=broadcast", "job.x.root=2"}, "job.x.root"},
      {{"job.x.ranks=0,1", "job.x.collective=goal"}, "job.x.schedule"},
      {{"job.x.ranks=0,1", "job.x.collective=goal", "job.x.schedule=" + dir.file("missing.goal")}, "job.x.schedule"},
      {{"job.x.ranks=0,1", "job.x.algorithm=tree", "job.x.bytes=1GB", "job.x.chunk_bytes=1"}, "job.x.chunk_bytes"},
      {{"job.x.ranks=0,1", "job.x.iterations=0"}, "job.x.iterations"},
      {{"job.x.bytes=1MB"}, "job.x.ranks"},
  };
  for (const auto& [sets, key] : cases) {
    Args a = eight_leaves(dir, "bad.db");
    for (const std::string& assignment : sets) a.set(assignment);
    const ProcResult r = run_fabricsim(a, 60);
    EXPECT_TRUE(r.exited && r.exit_code == 2) << r.describe();
    EXPECT_NE(r.err.find("'" + key + "'"), std::string::npos) << key << ": " << r.err;
  }
  EXPECT_FALSE(file_exists(dir.file("bad.db")) && Db(dir.file("bad.db")).integer("SELECT count(*) FROM runs") > 0);
}

}  // namespace
}  // namespace fabricsim_it
