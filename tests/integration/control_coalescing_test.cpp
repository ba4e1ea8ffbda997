// Coalescing of a VOQ's control messages (issue 18, section 2), on a 2-leaf
// fabric: one saturating flow of 256 B frames to the other leaf, whose
// requests, grants and ACKs follow each other every ~22 ns, well within the
// hold-off, so that most of them ride in another; without coalescing every
// copy costs its own three messages. And the hold-off's calibration: E3's
// remote copies are ACKed about 3.5 us after admission, as published.
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

struct ControlCounts {
  double messages = 0, merged = 0, delivered = 0;
};

ControlCounts run(const std::string& coalesce) {
  TempDir dir;
  const std::string db_path = dir.file("c.db");
  const ProcResult r = run_fabricsim(Args()
                                         .opt("--config", write_two_leaf_ini(dir))
                                         .set("flow.a.src=0")
                                         .set("flow.a.dst=5")
                                         .set("flow.a.frame_size=256")
                                         .set("leaf.control.coalesce=" + coalesce)
                                         .opt("--time", "100us")
                                         .opt("--db", db_path));
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(db_path);
  const auto last = [&](const std::string& metric) {
    return db.real(
        "SELECT COALESCE(SUM(value), 0) FROM v_samples s WHERE metric = '" + metric +
        "' AND t_ps = (SELECT MAX(t_ps) FROM v_samples t WHERE t.entity = s.entity AND t.metric = s.metric)");
  };
  return {last("control_messages"), last("control_merged"), db.real("SELECT COUNT(*) FROM deliveries")};
}

TEST(IntegrationControl, CoalescingMergesAVoqsRequestsGrantsAndAcks) {
  const ControlCounts off = run("");
  const ControlCounts on = run("request,grant,ack");
  ASSERT_GT(off.delivered, 3000);
  EXPECT_EQ(off.merged, 0);
  // Without coalescing at the source: about three messages per copy (those
  // queued behind each other at a link still merge).
  EXPECT_GT(off.messages / off.delivered, 2.0);
  EXPECT_GT(on.merged, 0.5 * on.delivered);
  EXPECT_LT(on.messages / on.delivered, 0.6 * off.messages / off.delivered);
  // The flow still gets its line rate.
  EXPECT_NEAR(on.delivered, off.delivered, 0.02 * off.delivered);
}

// leaf.control.holdoff (650 ns) is calibrated on the one published
// measurement of it: a remote copy of E3's 99G flow "ACKed after
// approximately 3500 ns" (3.50-3.56 us over seeds 1-5); at 100 ns the model
// ACKed it after 2.70 us.
TEST(IntegrationControl, E3sRemoteCopiesAreAckedAfterAbout3500Ns) {
  for (const char* holdoff : {"", "100ns"}) {
    TempDir dir;
    const std::string db_path = dir.file("e3.db");
    Args args = Args().opt("--study", "E3b").opt("--time", "1ms").opt("--db", db_path);
    if (*holdoff) args.set(std::string("leaf.control.holdoff=") + holdoff);
    const ProcResult r = run_fabricsim(args, 120);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    Db db(db_path);
    const auto total = [&](const std::string& metric) {
      return db.real(
          "SELECT COALESCE(SUM(value), 0) FROM v_samples s WHERE metric = '" + metric +
          "' AND t_ps = (SELECT MAX(t_ps) FROM v_samples t WHERE t.entity = s.entity AND t.metric = s.metric)");
    };
    const double hold_us = total("remote_copy_hold_ps") / total("remote_copies_acked") / 1e6;
    if (*holdoff) {
      EXPECT_LT(hold_us, 3.0) << "the 100 ns hold-off";
    } else {
      EXPECT_NEAR(hold_us, 3.5, 0.2) << "the default hold-off";
    }
  }
}

}  // namespace
}  // namespace fabricsim_it
