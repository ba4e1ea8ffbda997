// Checks before the run that are bounds (issue 50, item 3), on the cases the
// issue found: each warning computes what the traffic puts on the resource
// and the path the mechanism takes under load, names every key to change
// together, and states a bound the run then does not beat; its remedy
// passes every check.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "tests/db/db_test_support.h"
#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// By hand, the spec's defaults: 100 Gb/s ports offering 1522 B frames (98.70
// Gb/s of frame bytes), 25 Gb/s uplinks, 256 B packets (81.92 ns), 10 B
// control messages (3.2 ns), leaves of 50 ns, spines of 44 ns, 5 ns/m.
constexpr double kFrameGbps = 100.0 * 1522 / 1542;
constexpr double kPacketNs = 81.92, kControlNs = 3.2, kLeafNs = 50, kSpineNs = 44;

double flight_ns(double metres) { return metres * 5; }
// Source leaf, spine, target leaf, behind packets (under load).
double loaded_one_way_ns(double metres) { return 2 * kLeafNs + kSpineNs + 2 * (kPacketNs + flight_ns(metres)); }

ProcResult perm640(const std::vector<std::string>& sets, const std::string& db, const std::string& time = "2us") {
  Args args = Args().opt("--study", "perm640").opt("--time", time).opt("--record", "summary").opt("--db", db);
  for (const std::string& s : sets) args.set(s);
  return run_fabricsim(args, 600);
}

std::vector<std::string> warnings(const ProcResult& r) {
  std::vector<std::string> w;
  const std::regex line("fabricsim: warning: ([^\n]*)");
  for (std::sregex_iterator i(r.err.begin(), r.err.end(), line), end; i != end; ++i) w.push_back((*i)[1]);
  return w;
}

// The keys and values a warning's remedy names: "remedy ...: KEY VALUE, KEY VALUE and KEY VALUE".
std::vector<std::string> remedy_sets(const std::string& warning) {
  std::vector<std::string> sets;
  const std::string tail = warning.substr(warning.find("remedy"));
  const std::regex kv("([a-z_]+\\.[a-z_.]+) ([0-9.]+) (KB|MB|B)?");
  for (std::sregex_iterator i(tail.begin(), tail.end(), kv), end; i != end; ++i) {
    std::string unit = (*i)[3];
    sets.push_back((*i)[1].str() + "=" + (*i)[2].str() + unit);
  }
  return sets;
}

double number_before(const std::string& text, const std::string& after) {
  const size_t at = text.find(after);
  EXPECT_NE(at, std::string::npos) << text;
  size_t start = at;
  while (start > 0 && (std::isdigit(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '.')) --start;
  return std::stod(text.substr(start, at - start));
}

// spine.buffer_packets 4 at 40 m: credits ride reverse packets under load,
// 81.92 + 2 x 200 + 44 + 81.92 = 607.8 ns, so 4 x 256 B carry 13.5 Gb/s;
// never faster than riding a 10 B message, 529.1 ns: 15.5 Gb/s. The
// permutation puts ~15.4 Gb/s on each uplink. At 5 packets the loaded
// window carries 16.8: no warning.
TEST(PreRunBounds, TheSpineWindowWarnsOnlyBelowWhatThePermutationPutsOnEachUplinkAndIsNeverBeaten) {
  TempDir dir;
  const ProcResult four = perm640({"spine.buffer_packets=4"}, dir.file("w4.db"), "60us");
  ASSERT_TRUE(four.exited && four.exit_code == 0) << four.describe();
  const std::vector<std::string> w = warnings(four);
  ASSERT_EQ(w.size(), 1u) << four.err;
  const double at_most = number_before(w[0], " Gb/s, about");
  const double about = number_before(w[0], " Gb/s, and the traffic offers");
  EXPECT_NEAR(at_most, 4 * 256 * 8 / (kPacketNs + 2 * flight_ns(40) + kSpineNs + kControlNs), 0.06);
  EXPECT_NEAR(about, 4 * 256 * 8 / (2 * kPacketNs + 2 * flight_ns(40) + kSpineNs), 0.06);
  Db db(dir.file("w4.db"));
  const double carried =
      std::stod(db.text("SELECT max(t.value) * 8000.0 / r.sim_time_ps FROM v_run_totals t JOIN runs r USING (run_id) "
                        "WHERE t.metric = 'data_bytes' AND t.entity LIKE '%_up'"));
  EXPECT_LE(carried, at_most) << "the run beat the warning's bound";
  EXPECT_GT(carried, 0.9 * about) << "the loaded estimate is far from what the run carried";
  for (const char* packets : {"5", "6", "8"}) {
    const ProcResult r =
        perm640({std::string("spine.buffer_packets=") + packets}, dir.file(std::string("w") + packets + ".db"));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    EXPECT_TRUE(warnings(r).empty()) << packets << " packets: " << r.err;
  }
}

// 400 m lossless: a port holds a frame's payload from admission to ACK,
// request and grant, data and ACK, 4 one-way trips of 4.31 us under load:
// 17.2 us x 98.7 Gb/s = 208 KB, above Qhi (160 KB). The warning names the
// pause thresholds and the pool together; its remedy passes every check.
TEST(PreRunBounds, A400mLosslessRunWarnsThatQhiIsBelowWhatAPortHoldsUntilItsAcks) {
  TempDir dir;
  const ProcResult r = perm640({"topology.leaf_spine_cable_m=400", "classes.lossless_priorities=0"}, dir.file("l.db"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::vector<std::string> w = warnings(r);
  ASSERT_EQ(w.size(), 1u) << r.err;
  const double held_kb = kFrameGbps * 4 * loaded_one_way_ns(400) / 8 / 1024;
  EXPECT_NEAR(number_before(w[0], " KB: a lossless port holds"), held_kb, 1.0);
  Db db(dir.file("l.db"));
  EXPECT_EQ(db.text("SELECT keys FROM run_warnings"),
            "leaf.pause.qhi, leaf.pause.qlow, leaf.ingress.lossless_pool, topology.leaf_spine_cable_m");
  std::vector<std::string> remedy = remedy_sets(w[0]);
  ASSERT_EQ(remedy.size(), 3u) << w[0];
  remedy.push_back("topology.leaf_spine_cable_m=400");
  remedy.push_back("classes.lossless_priorities=0");
  const ProcResult fixed = perm640(remedy, dir.file("l2.db"));
  ASSERT_TRUE(fixed.exited && fixed.exit_code == 0) << fixed.describe();
  EXPECT_TRUE(warnings(fixed).empty()) << fixed.err;
}

// 400 m lossy with Vth raised to 128 KB: the VOQ holds 104 KB under load
// (98.7 Gb/s x the 8.6 us request-grant round trip) and its granted copies
// as much again until their ACKs: above Tth (185 KB). The warning says so
// before the run, the run drops at the payload threshold as it predicts,
// and the Vth warning's own remedy (with Tth and the pool) passes every check.
TEST(PreRunBounds, RaisingVthAt400mWarnsThatTthMustHoldTheCopiesAwaitingTheirAcks) {
  TempDir dir;
  const ProcResult r =
      perm640({"topology.leaf_spine_cable_m=400", "leaf.voq.threshold=128KB"}, dir.file("t.db"), "40us");
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::vector<std::string> w = warnings(r);
  ASSERT_EQ(w.size(), 1u) << r.err;
  EXPECT_NE(w[0].find("leaf.ingress.lossy_threshold 185 KB <"), std::string::npos) << w[0];
  const double held_kb = kFrameGbps * 4 * loaded_one_way_ns(400) / 8 / 1024;
  EXPECT_NEAR(number_before(w[0], " KB: under load"), held_kb, 1.0);
  Db db(dir.file("t.db"));
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = 'payload'"), 0);

  const ProcResult vth = perm640({"topology.leaf_spine_cable_m=400"}, dir.file("v.db"));
  const std::vector<std::string> vw = warnings(vth);
  ASSERT_EQ(vw.size(), 1u) << vth.err;
  std::vector<std::string> remedy = remedy_sets(vw[0]);
  ASSERT_EQ(remedy.size(), 3u) << vw[0];
  remedy.push_back("topology.leaf_spine_cable_m=400");
  const ProcResult fixed = perm640(remedy, dir.file("v2.db"), "60us");
  ASSERT_TRUE(fixed.exited && fixed.exit_code == 0) << fixed.describe();
  EXPECT_TRUE(warnings(fixed).empty()) << fixed.err;
  Db fdb(dir.file("v2.db"));
  EXPECT_EQ(fdb.integer("SELECT count(*) FROM drops"), 0) << "the remedy still drops";
}

// Found by the what-if campaign (seed 57, case 175): with 2 packets of spine
// buffer at 487 m each leaf-spine link carries about 0.8 Gb/s, so the copies
// awaiting their ACKs are far fewer than a full-rate VOQ's, and Tth holds
// them. The payload-threshold warning counts the links' credit windows in
// the rate the uplinks let through: only the window's own warning stays,
// and the run drops from the VOQs' heads only, as predicted.
TEST(PreRunBounds, TheCopiesAwaitingTheirAcksGoNoFasterThanTheLinksCreditWindowsLetThem) {
  TempDir dir;
  const ProcResult r = perm640({"topology.racks=1", "topology.leaves=8", "topology.leaf_spine_cable_m=487.3",
                                "spine.buffer_packets=2", "classes.lossless_priorities=", "leaf.voq.threshold=128KB"},
                               dir.file("w.db"), "40us");
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::vector<std::string> w = warnings(r);
  ASSERT_EQ(w.size(), 1u) << r.err;
  EXPECT_NE(w[0].find("spine.buffer_packets 2 packets"), std::string::npos) << w[0];
  Db db(dir.file("w.db"));
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops WHERE reason = 'payload'"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = 'voq_head'"), 0);
}

}  // namespace
}  // namespace fabricsim_it
