// The ibft platform (E13) end to end: one packet with no contention arrives
// when the link and switch latencies say (cut-through and store and
// forward); every member gets each multicast exactly once under every
// scheme (OpenSM by both root rules); no deadlock; determinism. Bad input: platform_bad_input_test.cpp.
#include <gtest/gtest.h>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

Args e13(const std::string& db) { return Args().opt("--study", "E13").opt("--db", db); }

// Switches between two nodes of IBFT(8, 3): up to the level of their
// greatest common prefix and down again.
int switches_between(int a, int b) {
  const int da[] = {a / 16, a / 4 % 4, a % 4}, db[] = {b / 16, b / 4 % 4, b % 4};
  int l = 0;
  while (l < 2 && da[l] == db[l]) ++l;
  return 2 * (2 - l) + 1;
}

TEST(Ibft, OnePacketWithNoContentionTakesTheTimeComputedByHand) {
  TempDir dir;
  const std::string path = dir.file("one.db");
  for (const char* forwarding : {"cut_through", "store_and_forward"}) {
    for (const char* seed : {"1", "2", "3"}) {
      const ProcResult r = run_fabricsim(e13(path)
                                             .set("ibft.sources=1")
                                             .set("ibft.group=1")
                                             .set("ibft.message_bytes=1KB")
                                             .set(std::string("ibft.forwarding=") + forwarding)
                                             .opt("--seed", seed));
      ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    }
  }
  Db db(path);
  const auto rows = db.rows(
      "SELECT r.config LIKE '%ibft.forwarding = store_and_forward%', f.src_port, d.dst_port, d.t_delivered_ps "
      "FROM deliveries d JOIN flows f ON f.run_id = d.run_id AND f.flow_id = d.flow_id "
      "JOIN runs r ON r.run_id = d.run_id ORDER BY d.run_id");
  ASSERT_EQ(rows.size(), 6u);
  const int64_t serialization = 1024 * 4000, flight = 20'000, routing = 100'000;  // ps
  for (const auto& row : rows) {
    const bool store_and_forward = row[0] == "1";
    const int switches = switches_between(std::stoi(row[1]), std::stoi(row[2]));
    const int64_t links = switches + 1;
    // Cut through: the packet is serialized once, and each hop adds its
    // flight and each switch its routing time. Store and forward: each link
    // serializes it again.
    const int64_t expected = store_and_forward ? links * (serialization + flight) + switches * routing
                                               : serialization + links * flight + switches * routing;
    EXPECT_EQ(std::stoll(row[3]), expected) << (store_and_forward ? "store and forward " : "cut through ") << row[1]
                                            << " -> " << row[2] << ", " << switches << " switches";
  }
}

TEST(Ibft, EveryMemberGetsEachMulticastExactlyOnceUnderEveryScheme) {
  TempDir dir;
  const std::string path = dir.file("e13.db");
  // OpenSM by both root rules (ibft.opensm_root).
  for (const char* scheme : {"cyclic", "opensm", "opensm_spread", "unicast"}) {
    Args args = e13(path);
    if (std::string(scheme) == "opensm_spread")
      args.set("ibft.scheme=opensm").set("ibft.opensm_root=spread");
    else
      args.set(std::string("ibft.scheme=") + scheme);
    const ProcResult r = run_fabricsim(
        args.set("ibft.sources=40%").set("ibft.message_bytes=256").set("ibft.mtu=128").opt("--record", "frames"));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << scheme << ": " << r.describe();
  }
  Db db(path);
  EXPECT_EQ(db.integer("SELECT count(*) FROM runs WHERE status = 'done'"), 4);
  // Each (flow, destination of the flow) receives both packets of the message
  // exactly once; nothing else is delivered.
  for (int run = 1; run <= 4; ++run) {
    const std::string r = std::to_string(run);
    EXPECT_EQ(db.integer("SELECT count(*) FROM flow_dests WHERE run_id = " + r), 51 * 51) << run;
    EXPECT_EQ(db.integer("SELECT count(*) FROM (SELECT d.flow_id, d.dst_port, d.frame_id, count(*) AS n "
                         "FROM deliveries d WHERE run_id = " +
                         r + " GROUP BY 1, 2, 3) WHERE n <> 1"),
              0)
        << run;
    EXPECT_EQ(db.integer("SELECT count(*) FROM deliveries d WHERE run_id = " + r +
                         " AND NOT EXISTS (SELECT 1 FROM flow_dests fd WHERE fd.run_id = d.run_id AND "
                         "fd.flow_id = d.flow_id AND fd.dst_port = d.dst_port)"),
              0)
        << run;
    EXPECT_EQ(db.integer("SELECT count(*) FROM deliveries WHERE run_id = " + r), 51 * 51 * 2) << run;
    // The completion sample is the last delivery.
    EXPECT_EQ(db.integer("SELECT CAST(value AS INTEGER) FROM v_run_totals WHERE run_id = " + r +
                         " AND metric = 'completion_ps'"),
              db.integer("SELECT max(t_delivered_ps) FROM deliveries WHERE run_id = " + r));
  }
}

// The heaviest cases finish: all sources to every other node, each scheme,
// both forwarding modes.
TEST(Ibft, NoDeadlockWithAllSourcesToEveryOtherNode) {
  TempDir dir;
  const std::string path = dir.file("all.db");
  for (const char* scheme : {"cyclic", "opensm", "unicast"}) {
    for (const char* forwarding : {"cut_through", "store_and_forward"}) {
      const ProcResult r = run_fabricsim(e13(path)
                                             .set(std::string("ibft.scheme=") + scheme)
                                             .set(std::string("ibft.forwarding=") + forwarding)
                                             .set("ibft.group=100%")
                                             .set("ibft.message_bytes=64"),
                                         120);
      ASSERT_TRUE(r.exited && r.exit_code == 0) << scheme << " " << forwarding << ": " << r.describe();
    }
  }
  Db db(path);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_run_totals WHERE metric = 'deliveries' AND value = 128 * 127"), 6);
}

// A 128 KB packet is 524 us on the wire, more than sim.stall_timeout
// (100 us) without a new message: no stall (the configuration fuzzer's
// finding). The same for a backplane frame on a slow link.
TEST(Ibft, LongPacketsAreNoStall) {
  TempDir dir;
  const ProcResult r = run_fabricsim(e13(dir.file("long.db")).set("ibft.message_bytes=128KB").set("ibft.sources=4"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const ProcResult b = run_fabricsim(Args()
                                         .opt("--study", "E12c")
                                         .opt("--time", "5ms")
                                         .opt("--db", dir.file("slow.db"))
                                         .set("backplane.link_gbps=0.01"));
  ASSERT_TRUE(b.exited && b.exit_code == 0) << b.describe();
}

TEST(Ibft, SameSeedSameDatabase) {
  TempDir dir;
  for (const char* name : {"a.db", "b.db"}) {
    const ProcResult r = run_fabricsim(e13(dir.file(name)).set("ibft.scheme=opensm").opt("--record", "frames"));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  }
  const auto a = database_contents(dir.file("a.db"));
  const auto b = database_contents(dir.file("b.db"));
  for (size_t t = 0; t < a.size(); ++t) EXPECT_TRUE(a[t] == b[t]) << a[t].substr(0, 40) << "... differs";
}

}  // namespace
}  // namespace fabricsim_it
