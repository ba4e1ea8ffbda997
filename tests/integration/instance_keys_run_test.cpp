// Per-instance keys end to end (issue 57): a value given for one leaf, one
// link or one spine reaches that instance only, the run's run_params
// records it as given, --explain and --list-params --resolved show it, and
// bad instance keys end the run before it starts, exit 2, naming the key,
// the value and what is allowed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// Port `port`'s cache counter at the end of the run (the samples are cumulative).
double cache_counter(Db& db, int port, const std::string& metric) {
  return db.real("SELECT coalesce(max(value), 0) FROM v_samples WHERE entity = 'port" + std::to_string(port) +
                 "' AND metric = '" + metric + "'");
}

ProcResult run(const TempDir& dir, const std::string& db, Args args) {
  args.opt("--db", dir.file(db));
  return run_fabricsim(args, 300);
}

// E2a with 128 entries: port 0 (leaf 0) multicasts to 8 ports with VOQ
// sync off, so its local copies run ahead of the remote ones. A 16-entry
// cache at leaf 0 only evicts live entries there; the same cache given to
// leaves 1-4 leaves leaf 0's cache as the class-wide run's.
TEST(InstanceKeysRun, ALeafsCacheReachesThatLeafOnly) {
  TempDir dir;
  const Args e2a = Args().opt("--study", "E2a").opt("--time", "300us").set("leaf.cache.entries=128");
  ProcResult r = run(dir, "base.db", e2a);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  r = run(dir, "leaf0.db", Args(e2a).set("leaf[0].cache.entries=16"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  r = run(dir, "leaf1.db", Args(e2a).set("leaf[1-4].cache.entries=16"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();

  Db base(dir.file("base.db")), leaf0(dir.file("leaf0.db")), leaf1(dir.file("leaf1.db"));
  EXPECT_EQ(cache_counter(base, 0, "cache_premature_evictions"), 0);
  EXPECT_EQ(cache_counter(base, 0, "cache_misses"), 0);
  EXPECT_GT(cache_counter(leaf0, 0, "cache_premature_evictions"), 0);
  EXPECT_GT(cache_counter(leaf0, 0, "cache_misses"), 0);
  // Leaves 1-4 with 16 entries: port 0's cache on leaf 0 is the class-wide run's.
  for (const char* metric : {"cache_hits", "cache_misses", "cache_premature_evictions", "cache_background_reclaims"})
    EXPECT_EQ(cache_counter(leaf1, 0, metric), cache_counter(base, 0, metric)) << metric;
  // run_params records the key as given, with its number; the class-wide key keeps its value.
  EXPECT_EQ(leaf0.text("SELECT value || ' ' || source || ' ' || number FROM run_params "
                       "WHERE key = 'leaf[0].cache.entries'"),
            "16 set 16.0");
  EXPECT_EQ(leaf1.text("SELECT key FROM run_params WHERE key LIKE 'leaf[%'"), "leaf[1-4].cache.entries");
  EXPECT_EQ(leaf0.text("SELECT value || ' ' || source FROM run_params WHERE key = 'leaf.cache.entries'"), "128 set");
  EXPECT_EQ(base.integer("SELECT count(*) FROM run_params WHERE key LIKE '%[%'"), 0);
}

// Errors on one leaf-spine link corrupt messages there and nowhere else;
// link retry recovers them.
TEST(InstanceKeysRun, ErrorsOnOneLinkOnly) {
  TempDir dir;
  const ProcResult r =
      run(dir, "ber.db", two_leaf_shift().opt("--time", "50us").set("link[leaf0_spine3_up].errors.ber=1e-5"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("ber.db"));
  EXPECT_EQ(db.dump("SELECT DISTINCT e.name FROM totals t JOIN entities e USING (run_id, entity_id) "
                    "WHERE t.metric = 'corrupted' AND t.value > 0"),
            "leaf0_spine3_up\n");
  EXPECT_EQ(db.text("SELECT value FROM run_params WHERE key = 'link[leaf0_spine3_up].errors.ber'"), "1e-5");
  EXPECT_EQ(frames_not_delivered_once(db, 40'000'000), 0);
}

// Spine 1 at a fifth of the line rate, every link of it both ways
// (link[*_spine1_*].gbps): those links carry at most their own rate while
// spine 0's carry more; the run warns, naming the key, that the traffic
// offers them more than their rate; --explain gives one link's rate.
TEST(InstanceKeysRun, ASlowSpinesLinksOnly) {
  TempDir dir;
  const Args slow = two_leaf_shift().opt("--time", "100us").set("link[*_spine1_*].gbps=5");
  const ProcResult r = run(dir, "slow.db", slow);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("slow.db"));
  const auto gbps = [&](const std::string& link) {
    return db.real("SELECT value * 8000.0 / 100e6 FROM v_run_totals WHERE metric = 'data_bytes' AND entity = '" + link +
                   "'");
  };
  for (const char* link : {"leaf0_spine1_up", "leaf1_spine1_up", "leaf0_spine1_down", "leaf1_spine1_down"}) {
    EXPECT_LE(gbps(link), 5.0) << link;
    EXPECT_GT(gbps(link), 3.0) << link;
  }
  EXPECT_GT(gbps("leaf0_spine0_up"), 8.0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM run_warnings WHERE message LIKE 'link[*_spine1_*].gbps: %"
                       "each leaf-spine link carries at most 5 Gb/s%'"),
            1);
  const ProcResult explain = run_fabricsim(Args(slow).opt("--explain", "link[leaf1_spine1_down].gbps"));
  EXPECT_NE(explain.out.find("link[leaf1_spine1_down].gbps = 5"), std::string::npos) << explain.out;
  EXPECT_NE(explain.out.find("given as link[*_spine1_*].gbps"), std::string::npos) << explain.out;
  // The checks that read it, named as given: the line rate against the traffic's share fails.
  EXPECT_NE(
      explain.out.find("FAILS:  link[*_spine1_*].gbps: link[*_spine1_*].gbps carries what the traffic puts on each "
                       "leaf-spine link"),
      std::string::npos)
      << explain.out;
}

// Spine 1 at 5 us of traversal: its credit window (spine.buffer_packets,
// auto) is derived for its own round trip, recorded as spine[1].buffer_packets,
// and its links carry their share as spine 0's do. With one window given
// for every spine, the slow spine's links fall behind and the run warns.
TEST(InstanceKeysRun, ASlowSpineGetsItsOwnWindow) {
  TempDir dir;
  const Args slow = two_leaf_shift().opt("--time", "100us").set("spine[1].traversal_latency=5us");
  ProcResult r = run(dir, "auto.db", slow);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  r = run(dir, "pinned.db", Args(slow).set("spine.buffer_packets=16"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db automatic(dir.file("auto.db")), pinned(dir.file("pinned.db"));
  const int64_t class_wide =
      automatic.integer("SELECT value FROM run_params WHERE key = 'spine.buffer_packets' AND source = 'derived'");
  const int64_t own =
      automatic.integer("SELECT value FROM run_params WHERE key = 'spine[1].buffer_packets' AND source = 'derived'");
  EXPECT_EQ(class_wide, 16);
  EXPECT_GT(own, 2 * class_wide);
  EXPECT_NE(automatic.text("SELECT origin FROM run_params WHERE key = 'spine[1].buffer_packets'").find("spine 1: "),
            std::string::npos);
  EXPECT_EQ(automatic.integer("SELECT count(*) FROM run_warnings"), 0);
  EXPECT_EQ(pinned.integer("SELECT count(*) FROM run_params WHERE key LIKE 'spine[1].buffer%'"), 0);
  EXPECT_GE(pinned.integer("SELECT count(*) FROM run_warnings WHERE message LIKE 'spine 1: spine.buffer_packets%'"), 1);
  const auto ratio = [](Db& db) {  // spine 1's uplink data against spine 0's
    return db.real(
        "SELECT a.value / b.value FROM v_run_totals a, v_run_totals b WHERE a.metric = 'data_bytes' "
        "AND b.metric = 'data_bytes' AND a.entity = 'leaf0_spine1_up' AND b.entity = 'leaf0_spine0_up'");
  };
  EXPECT_GT(ratio(automatic), 0.95);
  EXPECT_LT(ratio(pinned), 0.9);
  const ProcResult explain = run_fabricsim(Args(slow).opt("--explain", "spine[1].buffer_packets"));
  EXPECT_NE(explain.out.find("spine[1].buffer_packets = " + std::to_string(own)), std::string::npos) << explain.out;
  const ProcResult other = run_fabricsim(Args(slow).opt("--explain", "spine[0].buffer_packets"));
  EXPECT_NE(other.out.find("spine[0].buffer_packets = 16"), std::string::npos) << other.out;
}

// E7a (egress CPs): one CNA without QCN, cna[5].qcn.gd=0: its rate
// limiters never cut. u1, from port 5, takes more of its congested port;
// u2 and u3, whose CNAs still react, keep their rates.
TEST(InstanceKeysRun, OneCnaWithoutQcn) {
  TempDir dir;
  const Args e7a = Args().opt("--study", "E7a").opt("--time", "2ms");
  ProcResult r = run(dir, "base.db", e7a);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  r = run(dir, "cna5.db", Args(e7a).set("cna[5].qcn.gd=0"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto gbps = [&](const std::string& db, const std::string& flow) {
    Db d(dir.file(db));
    return d.real(
        "SELECT sum(d.bytes + 20) * 8.0 / 1500000.0 FROM deliveries d JOIN flows f USING (run_id, flow_id) "
        "WHERE d.t_delivered_ps >= 500000000 AND f.name = '" +
        flow + "'");
  };
  EXPECT_GT(gbps("cna5.db", "u1"), gbps("base.db", "u1") + 5);
  for (const char* flow : {"u2", "u3"}) EXPECT_NEAR(gbps("cna5.db", flow), gbps("base.db", flow), 1.0) << flow;
}

// --explain shows one instance's value and the key that gave it;
// --list-params --resolved lists the instance keys given.
TEST(InstanceKeysRun, ExplainAndResolved) {
  const Args a = two_leaf()
                     .set("leaf[0-1].cache.entries=16")
                     .set("leaf[1].cache.entries=32")
                     .set("spine[2].traversal_latency=400ns");
  ProcResult r = run_fabricsim(Args(a).opt("--explain", "leaf[1].cache.entries"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("leaf[1].cache.entries = 32"), std::string::npos) << r.out;
  r = run_fabricsim(Args(a).opt("--explain", "leaf[0].cache.entries"));
  EXPECT_NE(r.out.find("leaf[0].cache.entries = 16"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("given as leaf[0-1].cache.entries"), std::string::npos) << r.out;
  r = run_fabricsim(Args(a).opt("--explain", "spine[5].traversal_latency"));
  EXPECT_NE(r.out.find("spine[5].traversal_latency = 44ns"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the class-wide key spine.traversal_latency"), std::string::npos) << r.out;
  // A link without errors of its own takes its class's: spine to leaf for a _down link.
  r = run_fabricsim(Args(a).set("errors.spine_leaf.ber=1e-9").opt("--explain", "link[leaf1_spine0_down].errors.ber"));
  EXPECT_NE(r.out.find("link[leaf1_spine0_down].errors.ber = 1e-9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the class-wide key errors.spine_leaf.ber"), std::string::npos) << r.out;
  r = run_fabricsim(Args(a).opt("--list-params").opt("--resolved"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("leaf[1].cache.entries\t32\tset"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("spine[2].traversal_latency\t400ns\tset"), std::string::npos) << r.out;
  r = run_fabricsim(Args().opt("--list-params"));
  EXPECT_NE(r.out.find("leaf[SELECTOR].KEY"), std::string::npos);
}

// --sweep takes instance keys: its points set them, each value checked
// against the key's range, each point against the fabric's instances.
TEST(InstanceKeysRun, SweepPoints) {
  ProcResult r =
      run_fabricsim(Args().opt("--study", "E2a").opt("--sweep", "leaf[3].cache.entries=1,8,32").opt("--points"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("\"points\": 48"), std::string::npos) << r.out;
  EXPECT_NE(
      r.out.find("\"sets\": [\"leaf.cache.entries=16\", \"flow.f1.frame_size=512\", \"leaf[3].cache.entries=8\"]"),
      std::string::npos)
      << r.out;
  r = run_fabricsim(Args().opt("--study", "E2a").opt("--sweep", "leaf[3].cache.entries=1,0").opt("--points"));
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("key 'leaf[3].cache.entries' has value '0'"), std::string::npos) << r.err;
  r = run_fabricsim(Args().opt("--study", "E2a").opt("--sweep", "leaf[9].cache.entries=1,8").opt("--points"));
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("indices 0 .. 4 (this fabric has 5 leaves)"), std::string::npos) << r.err;
}

// Bad instance keys: exit 2 before the run, naming the key, the value and what is allowed.
void expect_rejected(const Args& args, const std::vector<std::string>& needles) {
  TempDir dir;
  Args a = args;
  a.opt("--db", dir.file("bad.db"));
  const ProcResult r = run_fabricsim(a, 30);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  for (const std::string& n : needles) EXPECT_NE(r.err.find(n), std::string::npos) << "no '" << n << "' in:\n" << r.err;
  if (file_exists(dir.file("bad.db"))) {
    Db db(dir.file("bad.db"));
    if (db.integer("SELECT count(*) FROM sqlite_master WHERE name = 'runs'") > 0) {
      EXPECT_EQ(db.integer("SELECT count(*) FROM runs"), 0);
    }
  }
}

TEST(BadInputPerInstance, LeafOutOfRange) {
  expect_rejected(two_leaf().set("leaf[200].cache.entries=32"),
                  {"leaf[200].cache.entries", "'32'", "indices 0 .. 1 (this fabric has 2 leaves)"});
}

TEST(BadInputPerInstance, CnaAndSpineOutOfRange) {
  expect_rejected(two_leaf().set("cna[10].qcn.gd=0.01"), {"cna[10].qcn.gd", "indices 0 .. 9"});
  expect_rejected(two_leaf().set("spine[0-40].traversal_latency=1us"), {"spine[0-40].traversal_latency", "spines"});
}

TEST(BadInputPerInstance, MalformedSelector) {
  expect_rejected(two_leaf().set("leaf[1-].cache.entries=32"), {"leaf[1-].cache.entries", "'0-7,12'"});
  expect_rejected(two_leaf().set("leaf[1].cache.entries"), {"KEY=VALUE"});
  expect_rejected(two_leaf().set("leaf[1.cache.entries=3"), {"leaf[1.cache.entries", "leaf[SELECTOR].KEY"});
}

TEST(BadInputPerInstance, KeysThatAreNotPerInstance) {
  expect_rejected(two_leaf().set("sim[0].time=1us"), {"sim[0].time", "not per instance"});
  expect_rejected(two_leaf().set("topology[1].leaves=3"), {"topology[1].leaves", "not per instance"});
  expect_rejected(two_leaf().set("leaf[1].packet_bytes=512"),
                  {"leaf[1].packet_bytes", "one value for the whole fabric", "leaf.packet_bytes"});
}

TEST(BadInputPerInstance, ValueOutsideTheKeysRange) {
  expect_rejected(two_leaf().set("leaf[1].cache.entries=0"), {"leaf[1].cache.entries", "'0'", "1 .. 4096"});
  // A check across keys, for the instance: Slow above Shi at leaf 1 only.
  expect_rejected(two_leaf().set("leaf[1].sync.slow=20"), {"leaf[1].sync.slow", "20", "leaf.sync.shi"});
}

TEST(BadInputPerInstance, TypoInTheKeyPart) {
  expect_rejected(two_leaf().set("leaf[1].cache.entires=32"), {"did you mean 'leaf[1].cache.entries'"});
}

TEST(BadInputPerInstance, LinkThatDoesNotExist) {
  expect_rejected(two_leaf().set("link[leaf7_spine0_up].errors.ber=1e-6"),
                  {"link[leaf7_spine0_up].errors.ber", "leafL_spineS_up", "leaf7_spine0_up"});
}

TEST(BadInputPerInstance, LinkRates) {
  expect_rejected(two_leaf().set("link[leaf0_port1_to_cna].gbps=50"),
                  {"link[leaf0_port1_to_cna].gbps", "'50'", "topology.user_port_gbps"});
  expect_rejected(two_leaf().set("link[*_spine40_*].gbps=5"), {"link[*_spine40_*].gbps", "names none"});
  expect_rejected(two_leaf().set("link[*_spine1_*].gbps=0"), {"link[*_spine1_*].gbps", "'0'", "0.1 .. 1000 Gb/s"});
}

TEST(BadInputPerInstance, AnotherPlatformsRun) {
  expect_rejected(Args().opt("--study", "E12a").set("leaf[0].cache.entries=32"), {"leaf[0].cache.entries", "fabric"});
}

}  // namespace
}  // namespace fabricsim_it
