// Trustworthy what-ifs end to end: the 400 m cable from its one key,
// warnings printed, recorded and refused with --strict, --explain, and what
// the database records of every run (run_params, run_warnings,
// runs.platform), also in a file of schema version 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tests/db/db_test_support.h"
#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// The what-if of issue 35 and 50: every port of the 640-port fabric at line
// rate, leaf-spine cables of 400 m instead of 40 m. A remote copy's request,
// grant and data each cross two 400 m spans: 12 us of flight when a copy
// waits for its own grant. By hand, for 1522 B: 10 ns of CNA cable +
// max(123.36 ns of frame, 4 x 2 us) + 2 x 2 us + 123.36 ns + 10 ns.
constexpr int64_t kRemote1522At400m = 10'000 + 8'000'000 + 4'000'000 + 123'360 + 10'000;
const char* const kRemoteLatencies =
    "SELECT d.t_delivered_ps - f.t_created_ps FROM deliveries d JOIN frames f USING (run_id, frame_id) "
    "WHERE f.src_port / 5 != d.dst_port / 5 AND d.t_delivered_ps >= 30000000 ORDER BY 1";
// Each port's receive rate from other leaves over 30-60 us, wire Gb/s.
const char* const kRemoteRates =
    "SELECT sum(d.bytes + 20) * 8.0 / 30000.0 FROM deliveries d JOIN frames f USING (run_id, frame_id) "
    "WHERE f.src_port / 5 != d.dst_port / 5 AND d.t_delivered_ps >= 30000000 GROUP BY d.dst_port";

// perm640 with 400 m cables for 60 us into dir's w400.db, with the keys `sets`.
ProcResult run_at_400m(const TempDir& dir, const std::vector<std::string>& sets = {}) {
  Args args = Args()
                  .opt("--study", "perm640")
                  .opt("--time", "60us")
                  .opt("--record", "frames")
                  .set("topology.leaf_spine_cable_m=400")
                  .opt("--db", dir.file("w400.db"));
  for (const std::string& s : sets) args.set(s);
  return run_fabricsim(args, 600);
}

std::vector<int64_t> integers(Db& db, const std::string& sql) {
  std::vector<int64_t> values;
  for (const auto& row : db.rows(sql)) values.push_back(std::stoll(row.at(0)));
  return values;
}

int64_t p99(const std::vector<int64_t>& sorted) { return sorted[sorted.size() * 99 / 100]; }

// With Vth above the bytes of the round trip nothing drops at the VOQs, and
// every remote copy waits for a grant it asked for: none is faster than the
// flight, and the p99 is above it.
TEST(WhatIfRun, A400mCableFromItsOneKeyObeysTheFlight) {
  TempDir dir;
  const ProcResult r = run_at_400m(dir, {"leaf.voq.threshold=128KB"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find(" checked, 0 broken"), std::string::npos) << r.out;
  Db db(dir.file("w400.db"));
  const std::vector<int64_t> latencies = integers(db, kRemoteLatencies);
  ASSERT_GT(latencies.size(), 1000u);
  EXPECT_GE(latencies.front(), kRemote1522At400m);
  EXPECT_GE(p99(latencies), kRemote1522At400m);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops WHERE reason = 'voq_head'"), 0);
  EXPECT_EQ(db.integer("SELECT value FROM v_run_totals WHERE metric = 'copies_on_surplus_credit'"), 0);
  EXPECT_EQ(db.integer("SELECT coalesce(sum(value), 0) FROM v_run_totals WHERE metric = 'retry_timeouts'"), 0);
  // What it derived, as the run recorded it.
  EXPECT_EQ(db.text("SELECT value || ' ' || source FROM run_params WHERE key = 'link.retry.timeout'"),
            "7100ns derived");
  EXPECT_EQ(db.text("SELECT value || ' ' || source FROM run_params WHERE key = 'spine.buffer_packets'"), "79 derived");
  EXPECT_EQ(db.text("SELECT value || ' ' || source FROM run_params WHERE key = 'topology.leaf_spine_cable_m'"),
            "400 set");
}

// With the spec's Vth (60 KB) below the 8.62 us round trip, a VOQ asks for
// at most the Vth it holds: a window that holds a remote flow to Vth / round
// trip: at most (60 KB + a 1522 B frame) over the fastest request-grant
// round trip, 8.30 us (2 x (100 ns of leaves + 44 ns of spine + 2 x (2 us +
// 3.2 ns))), 60.7 Gb/s of frame bytes; about 57 Gb/s over the loaded one,
// as the warning says before the run. No port beats it, and no copy rides
// on credit owed back.
TEST(WhatIfRun, A400mCableWithTheSpecsVthHoldsRemoteFlowsToVthPerRoundTrip) {
  TempDir dir;
  const ProcResult r = run_at_400m(dir);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.err.find("a lossy flow to another leaf gets at most 60.7 Gb/s (Vth and a 1522 B frame per round trip), "
                       "about 57 Gb/s"),
            std::string::npos)
      << r.err;
  Db db(dir.file("w400.db"));
  std::vector<double> rates;
  for (const auto& row : db.rows(kRemoteRates)) rates.push_back(std::stod(row.at(0)));
  ASSERT_GT(rates.size(), 600u);
  for (double gbps : rates) EXPECT_LE(gbps * 1522 / 1542, 60.7);  // wire rates: the bound is of frame bytes
  for (double gbps : rates) EXPECT_LE(gbps, 57.0) << "about the loaded estimate";
  EXPECT_GT(*std::min_element(rates.begin(), rates.end()), 20.0) << "a window, not a collapse";
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = 'voq_head' AND t_ps >= 30000000"), 10000);
  EXPECT_EQ(db.integer("SELECT value FROM v_run_totals WHERE metric = 'copies_on_surplus_credit'"), 0);
}

// The what-if per_copy: each copy waits for the grant of its own request, so
// every copy of a line-rate VOQ is dropped from its head (4.9 us) before its
// grant is back (8.62 us): remote flows deliver almost nothing, and the
// warning says so.
TEST(WhatIfRun, PerCopyGrantsAt400mDropEveryRemoteCopyBeforeItsGrant) {
  TempDir dir;
  const ProcResult r = run_at_400m(dir, {"leaf.voq.dropped_copy_credit=per_copy"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.err.find("a VOQ fed faster drops nearly every copy from its head before that copy's grant is back"),
            std::string::npos)
      << r.err;
  Db db(dir.file("w400.db"));
  const int64_t remote = static_cast<int64_t>(integers(db, kRemoteLatencies).size());
  const int64_t offered_remote = db.integer(
      "SELECT count(*) FROM frames f JOIN flow_dests fd USING (run_id, flow_id) "
      "WHERE f.src_port / 5 != fd.dst_port / 5 AND f.t_created_ps >= 30000000");
  EXPECT_LT(remote, offered_remote / 100) << "remote copies delivered over 30-60 us of " << offered_remote;
  EXPECT_EQ(db.integer("SELECT value FROM v_run_totals WHERE metric = 'copies_on_surplus_credit'"), 0);
}

// The model before issue 50 as a what-if (keep): the credit of copies
// dropped while the first grants were on their way stays with the VOQs and
// carries later copies, which then arrive faster than a grant they asked
// for could have made them; they are counted.
TEST(WhatIfRun, KeptCreditOfDroppedCopiesCarriesLaterCopiesAndIsCounted) {
  TempDir dir;
  const ProcResult r = run_at_400m(dir, {"leaf.voq.dropped_copy_credit=keep"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("w400.db"));
  const std::vector<int64_t> latencies = integers(db, kRemoteLatencies);
  ASSERT_GT(latencies.size(), 1000u);
  EXPECT_LT(p99(latencies), kRemote1522At400m) << "sent on credit requested for earlier copies";
  EXPECT_GT(db.integer("SELECT value FROM v_run_totals WHERE metric = 'copies_on_surplus_credit'"), 100000);
}

// Half the spines (issue 50, item 5): a leaf's uplinks carry 400 Gb/s for
// the about 480 its ports send to other leaves, so each port gets about 80.
// The ports of a leaf must share them alike. They did not: when an uplink
// queue had room again the blocked crossbar inputs were woken in port
// order and port 0 always took it (94 Gb/s against 42 for port 4 of every
// leaf, 10 for the worst port). Now the order turns.
TEST(WhatIfRun, SixteenSpinesAreSharedAlikeByTheLeafsPorts) {
  TempDir dir;
  const ProcResult r = run_fabricsim(
      Args().opt("--study", "perm640").opt("--time", "60us").set("topology.spines=16").opt("--db", dir.file("s16.db")),
      600);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("s16.db"));
  // Per source port index on its leaf, the mean rate of its flow to another leaf over 30-60 us.
  std::vector<double> by_index;
  for (const auto& row :
       db.rows("WITH p AS (SELECT f.src_port AS s, sum(d.bytes + 20) * 8.0 / 30000.0 AS g FROM deliveries d "
               "JOIN frames f USING (run_id, frame_id) WHERE d.t_delivered_ps >= 30000000 AND f.src_port / 5 != "
               "d.dst_port / 5 GROUP BY f.src_port) SELECT s % 5, avg(g), min(g) FROM p GROUP BY s % 5 ORDER BY 1")) {
    by_index.push_back(std::stod(row.at(1)));
    EXPECT_GT(std::stod(row.at(2)), 55.0) << "the slowest port of index " << row.at(0);
  }
  ASSERT_EQ(by_index.size(), 5u);
  const auto [low, high] = std::minmax_element(by_index.begin(), by_index.end());
  EXPECT_LT(*high / *low, 1.05) << "ports of a leaf share its uplinks alike";
  EXPECT_GT(*low, 65.0);
}

Args short_400m_run(const TempDir& dir) {
  return two_leaf()
      .opt("--time", "5us")
      .set("topology.leaf_spine_cable_m=400")
      .set("link.retry.timeout=2us")
      .opt("--db", dir.file("w.db"));
}

TEST(WhatIfRun, AValueThatBreaksAConstraintIsWarnedAndRecorded) {
  TempDir dir;
  const ProcResult r = run_fabricsim(short_400m_run(dir));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::string warning =
      "fabricsim: warning: link.retry.timeout 2 us < the link ACK round trip of a 400 m leaf-spine link, 4.67 us";
  EXPECT_NE(r.err.find(warning), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("warnings ("), std::string::npos) << r.out;  // and in the summary
  Db db(dir.file("w.db"));
  EXPECT_EQ(db.text("SELECT keys FROM run_warnings WHERE check_name = 'link.retry.timeout >= the link ACK round trip'"),
            "link.retry.timeout, topology.leaf_spine_cable_m, topology.uplink_gbps, link.retry.ack_delay");
}

TEST(WhatIfRun, StrictRefusesIt) {
  TempDir dir;
  const ProcResult r = run_fabricsim(short_400m_run(dir).opt("--strict"));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("--strict"), std::string::npos) << r.err;
  EXPECT_FALSE(file_exists(dir.file("w.db")));
  // Without the broken value, --strict runs.
  const ProcResult ok = run_fabricsim(two_leaf().opt("--time", "5us").opt("--strict").opt("--db", dir.file("ok.db")));
  EXPECT_TRUE(ok.exited && ok.exit_code == 0) << ok.describe();
  EXPECT_EQ(ok.err.find("warning"), std::string::npos) << ok.err;
}

TEST(WhatIfRun, ExplainSaysWhereEachValueComesFrom) {
  TempDir dir;
  const auto explain = [&](const std::string& key, Args args) {
    const ProcResult r = run_fabricsim(args.opt("--explain", key).opt("--db", dir.file("x.db")));
    EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    return r.out;
  };
  const std::string derived = explain("link.retry.timeout", Args().opt("--study", "perm640"));
  EXPECT_NE(derived.find("link.retry.timeout = 2us\n"), std::string::npos) << derived;
  EXPECT_NE(derived.find("from:        derived: max(the spec's 2 us, 1.5 x 1.07 us) = 2 us; the link ACK round trip "
                         "of a 40 m leaf-spine link"),
            std::string::npos)
      << derived;
  EXPECT_NE(derived.find("holds:  link.retry.timeout >= the link ACK round trip"), std::string::npos) << derived;

  const std::string study = explain("traffic.pattern", Args().opt("--study", "perm640"));
  EXPECT_NE(study.find("traffic.pattern = permutation\n"), std::string::npos) << study;
  EXPECT_NE(study.find("from:        the study file, "), std::string::npos) << study;
  EXPECT_NE(study.find("perm640.ini:8"), std::string::npos) << study;

  const std::string set =
      explain("spine.buffer_packets", Args().opt("--study", "perm640").set("spine.buffer_packets=4"));
  EXPECT_NE(set.find("spine.buffer_packets = 4\n  from:        --set\n"), std::string::npos) << set;
  EXPECT_NE(set.find("FAILS:  spine.buffer_packets carries what the traffic puts on each leaf-spine link"),
            std::string::npos)
      << set;
  EXPECT_FALSE(file_exists(dir.file("x.db")));

  // A cell size what-if: the derivations it moved away from the spec's values.
  const std::string cell = explain("leaf.packet_bytes", Args().opt("--study", "perm640").set("leaf.packet_bytes=128"));
  EXPECT_NE(cell.find("derived away from the spec's values in this run:\n    leaf.downlink_buffer_packets = 32 (the "
                      "spec's 16): max(the spec's 16 x 256 B = 4 KB in 32 packets"),
            std::string::npos)
      << cell;
  EXPECT_NE(cell.find("    spine.buffer_packets = 32 (the spec's 16)"), std::string::npos) << cell;

  EXPECT_NE(
      explain("leaf.clock_mhz", Args().opt("--study", "E12c")).find("a key of platform 'fabric', not of this run's"),
      std::string::npos);
  EXPECT_NE(explain("flow.zz.src", Args().opt("--study", "E1a")).find("not given in this run"), std::string::npos);

  const ProcResult unknown = run_fabricsim(Args().opt("--explain", "link.retry.timout").opt("--db", dir.file("x.db")));
  EXPECT_TRUE(unknown.exited && unknown.exit_code == 2) << unknown.describe();
  EXPECT_NE(unknown.err.find("did you mean 'link.retry.timeout'"), std::string::npos) << unknown.err;
}

// The same, printed before a run: a what-if changes more than the key it sets.
TEST(WhatIfRun, ARunSaysWhatItsWhatIfDerivedAwayFromTheSpec) {
  TempDir dir;
  const ProcResult r =
      run_fabricsim(two_leaf().set("leaf.packet_bytes=128").opt("--time", "1us").opt("--db", dir.file("cell.db")));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.err.find("fabricsim: derived: spine.buffer_packets = 32, not the spec's 16: "), std::string::npos)
      << r.err;
  const ProcResult spec = run_fabricsim(two_leaf().opt("--time", "1us").opt("--db", dir.file("spec.db")));
  ASSERT_TRUE(spec.exited && spec.exit_code == 0) << spec.describe();
  EXPECT_EQ(spec.err.find("derived:"), std::string::npos) << spec.err;
}

TEST(WhatIfRun, ListParamsResolvedPrintsEveryKeyWithItsSource) {
  TempDir dir;
  const ProcResult r = run_fabricsim(Args()
                                         .opt("--list-params")
                                         .opt("--resolved")
                                         .opt("--study", "E11")
                                         .set("leaf.sync.shi=20")
                                         .opt("--db", dir.file("x.db")));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("leaf.sync.shi\t20\tset\t\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("link.retry.buffer\t6KB\tderived\tmax(the spec's 6 KB"), std::string::npos);
  EXPECT_NE(r.out.find("leaf.clock_mhz\t454\tdefault\t\n"), std::string::npos);
  EXPECT_EQ(r.out.find("backplane."), std::string::npos) << "only the run's platform's keys";
  EXPECT_FALSE(file_exists(dir.file("x.db")));
}

TEST(WhatIfRun, EveryRunRecordsItsKeysAndPlatform) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  for (const char* cable : {"40", "100"}) {
    const ProcResult r = run_fabricsim(
        two_leaf().opt("--time", "5us").set(std::string("topology.leaf_spine_cable_m=") + cable).opt("--db", path));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  }
  Db db(path);
  // "Cable length per run" is a join.
  EXPECT_EQ(db.dump("SELECT r.run_id, r.platform, p.value, p.source FROM runs r JOIN run_params p "
                    "ON p.run_id = r.run_id AND p.key = 'topology.leaf_spine_cable_m' ORDER BY r.run_id"),
            "1|fabric|40|set\n2|fabric|100|set\n");
  // Every key of the run's configuration, and only those.
  EXPECT_EQ(db.integer("SELECT count(*) FROM run_params WHERE run_id = 1"),
            db.integer("SELECT length(config) - length(replace(config, char(10), '')) FROM runs WHERE run_id = 1"));
  EXPECT_EQ(db.integer("SELECT count(*) FROM run_params WHERE key = 'sim.threads'"), 0);
  EXPECT_EQ(db.text("SELECT source FROM run_params WHERE run_id = 1 AND key = 'topology.leaves'"), "set");
  EXPECT_EQ(db.text("SELECT source FROM run_params WHERE run_id = 1 AND key = 'traffic.pattern'"), "study");
  EXPECT_EQ(db.text("SELECT source FROM run_params WHERE run_id = 1 AND key = 'leaf.clock_mhz'"), "default");
  EXPECT_EQ(db.integer("SELECT count(*) FROM run_warnings"), 0);
}

// What a run of the older file recorded, brought up, against the same run
// recorded by this version (run 2): entities, samples, totals and events by
// their entities' kinds and names (ids of entities that are not ports are
// numbered in another order).
void expect_runs_record_the_same(Db& db) {
  for (const char* view : {"v_samples", "v_run_totals", "v_events"}) {
    SCOPED_TRACE(view);
    const std::string columns = std::string(view) == "v_events"
                                    ? "t_ps, kind, entity_kind, entity, port_id, flow_id, value"
                                : std::string(view) == "v_samples" ? "t_ps, entity_kind, entity, port_id, metric, value"
                                                                   : "entity_kind, entity, port_id, metric, value";
    const auto of = [&](int run) {
      return "SELECT " + columns + " FROM " + view + " WHERE run_id = " + std::to_string(run);
    };
    EXPECT_EQ(db.integer("SELECT count(*) FROM (" + of(1) + ")"), db.integer("SELECT count(*) FROM (" + of(2) + ")"));
    EXPECT_EQ(db.integer("SELECT count(*) FROM (" + of(1) + " EXCEPT " + of(2) + ")"), 0);
  }
  // With their places (issue 55), read from the names by the step from version 5.
  const std::string entity = "kind, name, port_id, from_kind, from_id, to_kind, to_id, direction, vl";
  EXPECT_EQ(db.integer("SELECT count(*) FROM (SELECT " + entity +
                       " FROM entities WHERE run_id = 1 EXCEPT "
                       "SELECT " +
                       entity + " FROM entities WHERE run_id = 2)"),
            0);
}

// Issue 40: a file of version 4 comes up to this version, its runs'
// entities named by ids with kinds and places, their totals apart.
TEST(WhatIfRun, AFileOfSchemaVersion4IsBroughtUpToThisVersion) {
  TempDir dir;
  const std::string path = dir.file("old.db");
  // A two-leaf run with QCN, link retry and errors: ports, links, leaves,
  // congestion points and the system, in samples, totals and events.
  const auto run = [&] {
    return two_leaf()
        .set("leaf.qcn.position=both")
        .set("errors.leaf_spine.ber=1e-6")
        .set("errors.cna_leaf.ber=1e-6")
        .set("cna.e2e.retransmit=true")
        .opt("--time", "20us")
        .opt("--db", path);
  };
  ProcResult r = run_fabricsim(run());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  fabric::db::testing::back_to_schema_version(path, 4);
  r = run_fabricsim(run());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(path);
  EXPECT_EQ(db.text("SELECT value FROM meta WHERE key = 'schema_version'"), "6");
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE run_id = 1 AND entity_kind = 'link'"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_run_totals WHERE run_id = 1 AND entity_kind = 'system'"), 0);
  expect_runs_record_the_same(db);
  EXPECT_EQ(db.integer("SELECT count(*) FROM run_params WHERE run_id = 1 AND number IS NOT NULL"), 0);
  EXPECT_EQ(db.integer("SELECT number FROM run_params WHERE run_id = 2 AND key = 'record.sample_interval'"),
            10'000'000);
}

TEST(WhatIfRun, AFileOfSchemaVersion2IsBroughtUpToThisVersion) {
  TempDir dir;
  const std::string path = dir.file("old.db");
  ProcResult r = run_fabricsim(two_leaf().opt("--time", "2us").opt("--db", path));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  fabric::db::testing::back_to_schema_version(path, 2);  // what fabricsim wrote before version 3
  r = run_fabricsim(two_leaf().opt("--time", "2us").opt("--db", path));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(path);
  EXPECT_EQ(db.text("SELECT value FROM meta WHERE key = 'schema_version'"), "6");
  EXPECT_EQ(db.dump("SELECT run_id, coalesce(platform, 'NULL'), status FROM runs ORDER BY run_id"),
            "1|NULL|done\n2|fabric|done\n");
  // Every metric the samples and totals hold has its definition and unit.
  EXPECT_GT(db.integer("SELECT count(*) FROM metrics"), 50);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_samples WHERE unit IS NULL"), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_run_totals WHERE unit IS NULL"), 0);
  expect_runs_record_the_same(db);
  EXPECT_EQ(db.integer("SELECT count(*) FROM run_params WHERE run_id = 1"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM run_params WHERE run_id = 2"), 100);
}

}  // namespace
}  // namespace fabricsim_it
