// Bad input ends fabricsim before simulation with exit status 2 and a message
// naming the key and the value, and leaves no run row behind, both in a new
// database file and in one that already holds a finished run.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <memory>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

class BadInput : public ::testing::Test {
 protected:
  // A database holding one finished 2-leaf run, copied by every test.
  static const std::string& base_db() {
    static std::string path;
    if (!base_dir()) {
      base_dir() = std::make_unique<TempDir>();
      path = base_dir()->file("base.db");
      const ProcResult r = run_fabricsim(two_leaf_shift().opt("--time", "1us").opt("--db", path));
      EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    }
    return path;
  }
  static std::unique_ptr<TempDir>& base_dir() {
    static std::unique_ptr<TempDir> d;
    return d;
  }
  static void TearDownTestSuite() { base_dir().reset(); }

  // Runs `args` twice, once into a fresh path and once into a copy of the
  // base database; each must exit 2 with every needle in stderr and write no
  // run row.
  void expect_rejected(const Args& args, const std::vector<std::string>& needles) {
    const std::string fresh = dir_.file("fresh.db");
    const std::string existing = dir_.file("existing.db");
    copy_file(base_db(), existing);
    for (const std::string& db_path : {fresh, existing}) {
      SCOPED_TRACE(db_path);
      Args a = args;
      a.opt("--db", db_path);
      const ProcResult r = run_fabricsim(a, 30);
      ASSERT_TRUE(r.exited) << r.describe();
      EXPECT_EQ(r.exit_code, 2) << r.describe();
      for (const std::string& n : needles)
        EXPECT_NE(r.err.find(n), std::string::npos) << "no '" << n << "' in:\n" << r.err;
      EXPECT_LT(r.wall_seconds, 10.0);
      if (db_path == fresh) {
        if (file_exists(fresh)) {
          Db db(fresh);
          if (db.integer("SELECT count(*) FROM sqlite_master WHERE name = 'runs'") > 0) {
            EXPECT_EQ(db.integer("SELECT count(*) FROM runs"), 0);
          }
        }
      } else {
        Db db(existing);
        EXPECT_EQ(db.dump("SELECT run_id, status FROM runs"), "1|done\n");
        EXPECT_EQ(db.integer("SELECT count(*) FROM ports WHERE run_id <> 1"), 0);
        EXPECT_EQ(db.integer("SELECT count(*) FROM flows WHERE run_id <> 1"), 0);
      }
    }
  }

  TempDir dir_;
};

TEST_F(BadInput, UnknownKey) { expect_rejected(two_leaf().set("leaf.clok_mhz=5"), {"leaf.clok_mhz", "5"}); }

TEST_F(BadInput, MalformedValue) { expect_rejected(two_leaf().set("leaf.clock_mhz=fast"), {"leaf.clock_mhz", "fast"}); }

TEST_F(BadInput, ValueOutOfRange) { expect_rejected(two_leaf().set("topology.spines=0"), {"topology.spines", "'0'"}); }

TEST_F(BadInput, GoThresholdAboveStop) {
  expect_rejected(two_leaf().set("leaf.pause.qlow=200KB"), {"leaf.pause.qlow", "200KB", "leaf.pause.qhi"});
}

// Lossless means lossless (issue 18 §4): every lossless pool holds one
// largest frame (9216 B) or the run is refused, naming the key.
TEST_F(BadInput, LosslessPoolSmallerThanALargestFrame) {
  for (const char* key : {"leaf.ingress.lossless_pool", "leaf.surrogate.lossless_pool", "leaf.egress.pool",
                          "leaf.surrogate.egress_pool"}) {
    SCOPED_TRACE(key);
    expect_rejected(two_leaf().set("classes.lossless_priorities=0").set(std::string(key) + "=8KB"), {key, "8KB"});
  }
  expect_rejected(two_leaf().set("leaf.ingress.lossless_pool=8KB"), {"at least one largest frame, 9216 B"});
}

// Qhi leaves room for a frame crossing it and for what can still arrive
// after the STOP (188 units at 100G: docs/model.md); a pool too small for
// that is refused itself.
TEST_F(BadInput, QhiWithoutRoomForWhatArrivesAfterTheStop) {
  expect_rejected(two_leaf().set("leaf.pause.qhi=200KB"),
                  {"leaf.pause.qhi", "200KB", "256 B .. 175104 B", "leaf.ingress.lossless_pool"});
  expect_rejected(
      two_leaf().set("leaf.ingress.lossless_pool=40KB").set("leaf.pause.qhi=20KB").set("leaf.pause.qlow=10KB"),
      {"leaf.ingress.lossless_pool", "40KB", "at least 57600 B"});
}

// The lossless header pool holds the headers of the frames that can still
// arrive after a STOP: 7 frames of 8 copies with a lossless multicast flow,
// of 1 copy without; a given STOP threshold may not be later than derived.
TEST_F(BadInput, LosslessHeaderPoolSmallerThanThePauseHeadroom) {
  expect_rejected(two_leaf()
                      .set("classes.lossless_priorities=0")
                      .set("leaf.header_pool.lossless=40")
                      .set("flow.m.kind=multicast")
                      .set("flow.m.src=0")
                      .set("flow.m.dst=1,2,3"),
                  {"leaf.header_pool.lossless", "40", "at least 57 headers"});
  expect_rejected(two_leaf().set("leaf.header_pool.lossless=4"), {"leaf.header_pool.lossless", "at least 8 headers"});
  expect_rejected(two_leaf().set("leaf.pause.headers_hi=290"), {"leaf.pause.headers_hi", "290", "1 .. 284"});
}

TEST_F(BadInput, FlowToMissingPortFullTopology) {
  expect_rejected(Args().set("flow.x.src=0").set("flow.x.dst=700"), {"flow.x.dst", "700", "639"});
}

TEST_F(BadInput, FlowToMissingPortTwoLeaves) {
  expect_rejected(two_leaf().set("flow.x.src=0").set("flow.x.dst=20"), {"flow.x.dst", "20"});
}

TEST_F(BadInput, FlowFromMissingPortTwoLeaves) {
  expect_rejected(two_leaf().set("flow.x.src=10").set("flow.x.dst=1"), {"flow.x.src", "10"});
}

TEST_F(BadInput, MulticastGroupLargerThanTheLevelsCanReach) {
  // One surrogate level reaches D(1) = 24 ports at most: 0 -> 4 local copies
  // and 4 surrogates serving 5 each.
  expect_rejected(
      Args().set("multicast.max_levels=1").set("flow.m.kind=multicast").set("flow.m.src=0").set("flow.m.dst=1-40"),
      {"flow.m.dst", "1,2,3", "flow.m.dst", "1 surrogate levels"});
}

TEST_F(BadInput, EmptyMulticastGroup) {
  expect_rejected(two_leaf().set("flow.m.kind=multicast").set("flow.m.src=0").set("flow.m.dst="), {"flow.m.dst"});
}

TEST_F(BadInput, MulticastGroupNamingAMissingPort) {
  expect_rejected(two_leaf().set("flow.m.kind=multicast").set("flow.m.src=0").set("flow.m.dst=1,12"),
                  {"flow.m.dst", "1,12", "0 .. 9"});
}

TEST_F(BadInput, CacheWithoutEntries) {
  expect_rejected(two_leaf().set("leaf.cache.entries=0"), {"leaf.cache.entries", "'0'"});
}

TEST_F(BadInput, SyncResumeAboveSuspend) {
  expect_rejected(two_leaf().set("leaf.sync.slow=20"), {"leaf.sync.slow", "20", "leaf.sync.shi"});
}

TEST_F(BadInput, RedLowAboveHigh) {
  expect_rejected(two_leaf().set("leaf.header.red_low=480").set("leaf.header.red_high=400"),
                  {"leaf.header.red_low", "480", "leaf.header.red_high"});
}

TEST_F(BadInput, RedProbabilityOutsideZeroToOne) {
  expect_rejected(two_leaf().set("leaf.header.red_p=1.5"), {"leaf.header.red_p", "1.5"});
  expect_rejected(two_leaf().set("leaf.header.red_p=-0.1"), {"leaf.header.red_p", "-0.1"});
}

TEST_F(BadInput, PayloadThresholdAbovePool) {
  expect_rejected(two_leaf().set("leaf.ingress.lossy_threshold=300KB"),
                  {"leaf.ingress.lossy_threshold", "300KB", "leaf.ingress.lossy_pool"});
}

TEST_F(BadInput, VoqThresholdOfZero) {
  expect_rejected(two_leaf().set("leaf.voq.threshold=0"), {"leaf.voq.threshold", "'0'"});
}

TEST_F(BadInput, UnknownHeaderPolicyOrVoqDrop) {
  expect_rejected(two_leaf().set("leaf.header.policy=wred"), {"leaf.header.policy", "wred", "fixed_order"});
  expect_rejected(two_leaf().set("leaf.voq.drop=middle"), {"leaf.voq.drop", "middle", "tail"});
}

TEST_F(BadInput, FlowScheduleOutOfOrder) {
  expect_rejected(two_leaf().set("flow.x.src=0").set("flow.x.dst=6").set("flow.x.schedule=2ms-3ms,1ms-2ms"),
                  {"flow.x.schedule", "2ms-3ms,1ms-2ms", "time order"});
}

TEST_F(BadInput, BitErrorRateOutsideItsRange) {
  expect_rejected(two_leaf().set("errors.leaf_spine.ber=2e-3"), {"errors.leaf_spine.ber", "2e-3", "0.001"});
  expect_rejected(two_leaf().set("errors.cna_leaf.ber=-1e-9"), {"errors.cna_leaf.ber", "-1e-9"});
}

TEST_F(BadInput, RetryBufferSmallerThanOnePacket) {
  expect_rejected(two_leaf().set("link.retry.buffer=200B"), {"link.retry.buffer", "200B", "one packet", "256 B"});
}

// A piggybacked link ACK carries 16 bits of the link sequence number: the
// retry buffer must hold fewer than 32,768 of the smallest (10 B) messages.
TEST_F(BadInput, RetryBufferTooLargeForPiggybackedAcks) {
  expect_rejected(two_leaf().set("link.retry.ack_piggyback=true").set("link.retry.buffer=400KB"),
                  {"link.retry.buffer", "400KB", "ack_piggyback", "327679 B"});
}

TEST_F(BadInput, ZeroTimeouts) {
  expect_rejected(two_leaf().set("link.retry.timeout=0"), {"link.retry.timeout", "'0'"});
  expect_rejected(two_leaf().set("leaf.e2e.timeout=0ns"), {"leaf.e2e.timeout", "0ns"});
  expect_rejected(two_leaf().set("cna.e2e.timeout=0ns"), {"cna.e2e.timeout", "0ns"});
  // Found by the configuration fuzzer: a 1 ps timeout replays everything every
  // picosecond (100 s and 3 GB for 2 us of simulated time).
  expect_rejected(two_leaf().set("link.retry.timeout=1ps"), {"link.retry.timeout", "'1ps'", "100000 .. "});
  expect_rejected(two_leaf().set("leaf.e2e.timeout=999ns"), {"leaf.e2e.timeout", "999ns", "1000000 .. "});
  expect_rejected(two_leaf().set("cna.e2e.timeout=1ps"), {"cna.e2e.timeout", "'1ps'", "1000000 .. "});
  expect_rejected(two_leaf().set("cna.e2e.ack_every=0"), {"cna.e2e.ack_every", "0"});
}

TEST_F(BadInput, ScriptedErrorsOnALinkThatDoesNotExist) {
  expect_rejected(two_leaf().set("errors.scripted=leaf7_spine0_up:3"), {"errors.scripted", "leaf7_spine0_up"});
  expect_rejected(two_leaf().set("errors.scripted=leaf0_spine0_up"), {"errors.scripted", "LINK:SEQ"});
}

TEST_F(BadInput, QcnQeqZeroOrAboveThePool) {
  expect_rejected(two_leaf().set("leaf.qcn.position=ingress").set("leaf.qcn.qeq_ingress=0"),
                  {"leaf.qcn.qeq_ingress", "'0'"});
  expect_rejected(two_leaf().set("leaf.qcn.position=egress").set("leaf.qcn.qeq_egress=1MB"),
                  {"leaf.qcn.qeq_egress", "1MB", "leaf.egress.pool"});
}

TEST_F(BadInput, QcnNegativeWeight) {
  expect_rejected(two_leaf().set("leaf.qcn.position=both").set("leaf.qcn.w=-1"), {"leaf.qcn.w", "-1"});
}

TEST_F(BadInput, QcnUnknownPositionOrCulprit) {
  expect_rejected(two_leaf().set("leaf.qcn.position=middle"), {"leaf.qcn.position", "middle", "ingress", "egress"});
  expect_rejected(two_leaf().set("leaf.qcn.position=ingress").set("leaf.qcn.culprit=guess"),
                  {"leaf.qcn.culprit", "guess", "occupancy", "random"});
}

TEST_F(BadInput, ExplicitTreesWithMistakes) {
  auto tree = [](const std::string& text) {
    return Args()
        .set("flow.m.kind=multicast")
        .set("flow.m.src=0")
        .set("flow.m.dst=1,7,11")
        .set("flow.m.tree=explicit")
        .set("flow.m.explicit_tree=" + text);
  };
  expect_rejected(tree("0:1,641;641:7,642;642:11,641"), {"flow.m.explicit_tree", "group m", "loop"});
  expect_rejected(tree("0:1,641,7;641:642;642:11"), {"flow.m.explicit_tree", "leaf 1 is entered twice"});
  expect_rejected(tree("0:1,641;641:7,642,643,644,645,646,647,648,649;642:11"),
                  {"flow.m.explicit_tree", "fanout of 9"});
  expect_rejected(tree("0:1,6;6:7,11"), {"flow.m.explicit_tree", "port 6 replicates but is not a surrogate"});
}

TEST_F(BadInput, UnknownArrivalOrPhase) {
  expect_rejected(two_leaf().set("flow.x.src=0").set("flow.x.dst=6").set("flow.x.arrival=pareto"),
                  {"flow.x.arrival", "pareto", "cbr", "poisson", "bursty"});
  expect_rejected(two_leaf().set("flow.x.src=0").set("flow.x.dst=6").set("flow.x.phase=late"),
                  {"flow.x.phase", "late", "random", "zero"});
  expect_rejected(two_leaf_shift().set("traffic.arrival=uniform"), {"traffic.arrival", "uniform", "poisson"});
}

TEST_F(BadInput, FrameTooSmall) {
  expect_rejected(two_leaf().set("flow.x.src=0").set("flow.x.dst=6").set("flow.x.frame_size=40"),
                  {"flow.x.frame_size", "40", "64"});
}

TEST_F(BadInput, FrameTooLarge) {
  expect_rejected(two_leaf().set("flow.x.src=0").set("flow.x.dst=6").set("flow.x.frame_size=9217"),
                  {"flow.x.frame_size", "9217", "9216"});
}

TEST_F(BadInput, PatternFrameSizeRangeTooLarge) {
  expect_rejected(two_leaf_shift().set("traffic.frame_size=uniform:64:10000"), {"traffic.frame_size", "10000"});
}

TEST_F(BadInput, MoreLeavesThanSpinePorts) {
  // The default topology has 128 leaves; each takes one port of every spine.
  expect_rejected(Args().set("spine.ports=100"), {"spine.ports", "100"});
}

TEST_F(BadInput, UnknownStudy) {
  expect_rejected(Args().opt("--study", "nope"), {"--study", "nope", "E11", "perm640"});
}

TEST_F(BadInput, MalformedTime) { expect_rejected(two_leaf().opt("--time", "5parsecs"), {"sim.time", "5parsecs"}); }

TEST_F(BadInput, UnknownLogLevel) {
  expect_rejected(two_leaf().opt("--record", "other"), {"--record", "other", "summary"});
}

TEST_F(BadInput, UnknownOption) { expect_rejected(two_leaf().opt("--tiem", "5us"), {"tiem"}); }

// Issue 19: numbers never wrap or overflow into an uncaught exception, and
// list items are never skipped.
TEST_F(BadInput, ScriptedSequenceNumberTooLargeFor64Bits) {
  expect_rejected(two_leaf().set("errors.scripted=leaf0_spine0_up:99999999999999999999999"),
                  {"errors.scripted", "99999999999999999999999", "0 .. 18446744073709551615"});
}

TEST_F(BadInput, ScriptedErrorsWithAnEmptyItem) {
  expect_rejected(two_leaf().set("errors.scripted=,leaf0_spine0_up:1"), {"errors.scripted", "item 1 is empty"});
  expect_rejected(two_leaf().set("errors.scripted=leaf0_spine0_up:1,,leaf0_spine1_up:2"),
                  {"errors.scripted", "item 2 is empty"});
}

TEST_F(BadInput, ExplicitTreePortBeyond32Bits) {
  expect_rejected(Args()
                      .set("flow.m.kind=multicast")
                      .set("flow.m.src=0")
                      .set("flow.m.dst=1")
                      .set("flow.m.tree=explicit")
                      .set("flow.m.explicit_tree=0:4294967297"),
                  {"flow.m.explicit_tree", "4294967297", "0 .. 4294967295"});
}

TEST_F(BadInput, IntegerTooLargeFor64BitsNamesTheRange) {
  expect_rejected(two_leaf().set("sim.seed=99999999999999999999999"), {"sim.seed", "range 0 .. 9200000000000000000"});
}

TEST_F(BadInput, UnknownKeyInAFileNamesFileAndLine) {
  const std::string ini = dir_.file("typo.ini");
  std::ofstream(ini) << "[topology]\nracks = 1\nleavs = 2\n";
  expect_rejected(Args().opt("--config", ini), {ini + ":3", "topology.leavs", "did you mean 'topology.leaves'"});
}

TEST_F(BadInput, LongValueIsShortenedInTheMessage) {
  const std::string ini = dir_.file("long.ini");
  std::ofstream(ini) << "[topology]\nracks = 1\nleaves = 2\n[leaf]\ncache.entries = " << std::string(10'000'000, '7')
                     << "\n";
  expect_rejected(Args().opt("--config", ini), {ini + ":5", "leaf.cache.entries", "... (10000000 characters)"});
  const ProcResult r = run_fabricsim(Args().opt("--config", ini).opt("--db", dir_.file("long.db")), 30);
  EXPECT_LT(r.err.size(), 1000u);
}

TEST_F(BadInput, UnusedCommandLineWord) {
  expect_rejected(two_leaf().opt("--time", "20us").opt("E1a"), {"unexpected word 'E1a'"});
}

TEST_F(BadInput, UnwritableDatabasePath) {
  const std::string path = "/nonexistent/dir/x.db";
  ASSERT_FALSE(file_exists("/nonexistent"));
  const ProcResult r = run_fabricsim(two_leaf_shift().opt("--time", "1us").opt("--db", path), 30);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_NE(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_FALSE(file_exists("/nonexistent"));
}

TEST_F(BadInput, LockedDatabase) {
  const std::string path = dir_.file("locked.db");
  copy_file(base_db(), path);
  {
    Db holder(path);
    holder.exec("BEGIN EXCLUSIVE");
    const ProcResult r =
        run_fabricsim(two_leaf_shift().opt("--time", "1us").opt("--db", path).set("record.lock_wait=3s"), 60);
    holder.exec("ROLLBACK");
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_GE(r.wall_seconds, 3.0) << "gave up before record.lock_wait";
    EXPECT_LT(r.wall_seconds, 10.0) << "gave up too slowly";
    // Who holds it: this test's process (issue 52, N15).
    EXPECT_NE(r.err.find("waiting for the lock on '" + path + "' held by process " + std::to_string(getpid())),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("locked"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  }
  Db db(path);
  EXPECT_EQ(db.dump("SELECT run_id, status, sim_time_ps FROM runs"), "1|done|1000000\n");
  EXPECT_GT(db.integer("SELECT count(*) FROM ports WHERE run_id = 1"), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM ports WHERE run_id <> 1"), 0);
  // The database is usable again once the lock is gone.
  const ProcResult again = run_fabricsim(two_leaf_shift().opt("--time", "1us").opt("--db", path), 60);
  ASSERT_TRUE(again.exited && again.exit_code == 0) << again.describe();
  EXPECT_EQ(db.dump("SELECT run_id, status FROM runs ORDER BY run_id"), "1|done\n2|done\n");
}

// Guards (issue 19): a value that would exhaust memory or disk is refused
// with the limit and the key that raises it.
TEST_F(BadInput, SamplingSoOftenThatTheSamplesWouldFillTheDisk) {
  expect_rejected(Args().opt("--time", "200ns").set("record.sample_interval=1ps"),
                  {"record.sample_interval", "'1ps'", "0 (never) or at least 1ns", "record.max_samples"});
}

TEST_F(BadInput, ATopologyFarLargerThanTheFullSystem) {
  expect_rejected(Args().set("topology.racks=64").set("spine.ports=4096").set("topology.spines=256"),
                  {"topology.spines", "'256'", "at most 16 with 2048 leaves", "topology.max_fabric_links (32768)"});
}

}  // namespace
}  // namespace fabricsim_it
