// Lossless means lossless, for multicast too (issue 18 §4): a full lossless
// header pool, or a surrogate whose ingress cannot take a frame back, is
// back-pressure (PAUSE, or the surrogate holding the frame), never a drop.
// Before, the same runs dropped lossless copies for want of headers.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

constexpr int64_t kRunPs = 100 * kUs;

// Two 99G flows of 64 B frames from port 0 to 8 ports (4 on its leaf, one on
// each of 4 other leaves): 8 copies, so 8 lossless headers, per frame.
std::string header_overload_ini(const TempDir& dir) {
  const std::string path = dir.file("headers.ini");
  std::ofstream out(path);
  out << "[topology]\nracks = 1\nleaves = 5\n[classes]\nlossless_priorities = 0\n"
      << "[leaf]\nheader_pool.lossless = 128\n";
  for (const char* flow : {"m", "n"})
    out << "[flow." << flow << "]\nkind = multicast\nsrc = 0\ndst = 1,2,3,4,5,10,15,20\nframe_size = 64\n"
        << "rate_gbps = 99\n";
  return path;
}

// Two 99G flows of 64 B frames from ports 0 and 1 to the 5 ports of leaf 1,
// through its surrogate (port 11), whose lossless pool is the smallest allowed.
std::string surrogate_overload_ini(const TempDir& dir) {
  const std::string path = dir.file("surrogate.ini");
  std::ofstream out(path);
  out << "[topology]\nracks = 1\nleaves = 2\n[classes]\nlossless_priorities = 0\n"
      << "[leaf]\nsurrogate.lossless_pool = 18KB\n";
  for (const char* flow : {"m", "n"})
    out << "[flow." << flow << "]\nkind = multicast\nsrc = " << (flow[0] == 'm' ? 0 : 1)
        << "\ndst = 5-9\nframe_size = 64\nrate_gbps = 99\n";
  return path;
}

std::string run(const TempDir& dir, const std::string& ini, Args extra = Args()) {
  const std::string path = dir.file("run.db");
  const ProcResult r = run_fabricsim(extra.opt("--config", ini).opt("--time", "100us").opt("--db", path));
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  return path;
}

// Every 'pause_headers' row sits beside a 'pause' (STOP) of the same entity,
// time and value.
int64_t header_stops_without_a_stop(Db& db) {
  return db.integer(
      "SELECT count(*) FROM (SELECT entity, t_ps, value FROM v_events WHERE kind = 'pause_headers' "
      "EXCEPT SELECT entity, t_ps, value FROM v_events WHERE kind = 'pause')");
}

// The STOP threshold derived for a 128-header pool (128 less 7 frames of 8
// headers: 72) leaves room for everything that arrives after the STOP, so the
// port never has to hold a frame back.
TEST(LosslessMulticast, HeaderOverloadPausesTheSourceAndDropsNothing) {
  TempDir dir;
  Db db(run(dir, header_overload_ini(dir)));
  EXPECT_EQ(db.text("SELECT status FROM runs"), "done");
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'pause_headers' AND entity = 'port0'"), 10);
  EXPECT_EQ(header_stops_without_a_stop(db), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind = 'hold'"), 0);
  const int64_t injected = db.integer("SELECT count(*) FROM frames WHERE t_injected_ps IS NOT NULL");
  EXPECT_GT(injected, 300);
  EXPECT_LT(injected, 7000) << "2 x 99G of 64 B frames for 100 us offer 29000: most were held back";
  for (const char* flow : {"m", "n"})
    EXPECT_EQ(frames_not_delivered_to_each(db, flow, kRunPs - 20 * kUs, 8), 0) << flow;
}

// The surrogate's egress hands a frame back only when its ingress has the
// payload room and all 5 copies' headers: 64 B frames run out of headers
// first (291 headers are 58 frames, the 18 KB pool 72), so the surrogate
// holds frames for want of headers. Its destinations share what the headers
// carry alike: with ACKs merged over the 650 ns control hold-off a copy
// holds its header longer, and the 64 B flows get about half the line rate
// (49.6 Gb/s each, measured with every kind of control message held, issue
// 36; at 100 ns they kept it).
TEST(LosslessMulticast, SurrogateHoldsFramesForWantOfHeadersAndDropsNothing) {
  TempDir dir;
  Db db(run(dir, surrogate_overload_ini(dir)));
  EXPECT_EQ(db.text("SELECT status FROM runs"), "done");
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'pause_headers' AND entity = 'port11'"), 100);
  EXPECT_EQ(header_stops_without_a_stop(db), 0);
  EXPECT_EQ(db.integer("SELECT min(surrogate_levels) FROM deliveries"), 1);
  for (const char* flow : {"m", "n"})
    EXPECT_EQ(frames_not_delivered_to_each(db, flow, kRunPs - 20 * kUs, 5), 0) << flow;
  const std::map<int, double> rx = rx_gbps(db, kRunPs / 2, kRunPs);
  ASSERT_EQ(rx.size(), 5u);
  const double first = rx.begin()->second;
  for (const auto& [port, gbps] : rx) {
    EXPECT_GE(gbps, 40.0) << "port " << port;
    EXPECT_NEAR(gbps, first, 0.5) << "port " << port;
  }
}

// Without PAUSE thresholds (leaf.pause.enable = false) a lossless frame
// that finds no room waits at the port ('hold', flow and priority) and the
// CNA is STOPped until the last waiting frame is in: still no drop.
TEST(LosslessMulticast, WithoutPauseThresholdsFramesWaitAtThePortInstead) {
  TempDir dir;
  Db db(run(dir, header_overload_ini(dir), Args().set("leaf.pause.enable=false")));
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'hold' AND entity = 'port0' AND value = 0 "
                       "AND flow_id IN (SELECT flow_id FROM flows)"),
            10);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind = 'pause_headers'"), 0);
  // Each STOP came with a held frame; STOP and GO alternate.
  EXPECT_EQ(db.integer("SELECT count(*) FROM (SELECT entity, t_ps FROM v_events WHERE kind = 'pause' "
                       "EXCEPT SELECT entity, t_ps FROM v_events WHERE kind = 'hold')"),
            0);
  const int64_t stops = db.integer("SELECT count(*) FROM v_events WHERE kind = 'pause'");
  EXPECT_GT(stops, 0);
  EXPECT_LE(stops - db.integer("SELECT count(*) FROM v_events WHERE kind = 'go'"), 1);
  for (const char* flow : {"m", "n"})
    EXPECT_EQ(frames_not_delivered_to_each(db, flow, kRunPs - 20 * kUs, 8), 0) << flow;
}

}  // namespace
}  // namespace fabricsim_it
