// Soft errors on leaf-spine links (mechanism 10). Full-load 2-leaf unicast
// (every port to the port on the other leaf, lossless priority 3) with bit
// errors on leaf-spine and spine-leaf links:
// - with link retry, every frame arrives exactly once and in order;
// - without it, end-to-end retransmission recovers every frame, and without
//   that as well frames are lost (so the checks above can fail);
// - latency rises with the bit error rate.
// Traffic stops at 2 ms; the runs go on until what is in flight has arrived.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

constexpr int64_t kStopPs = 2000 * kUs;

// The 2-leaf permutation on priority 3 with errors on the CNA links
// (`error`: "ber=..." or "packet_probability=...") and the CNAs' transport on.
Args cna_transport(const std::string& error) {
  return two_leaf_shift().set("traffic.priority=3").set("errors.cna_leaf." + error).set("cna.e2e.retransmit=true");
}

Args full_load(const std::string& ber) {
  return two_leaf_shift()
      .set("classes.lossless_priorities=3")
      .set("traffic.priority=3")
      .set("traffic.stop=2ms")
      .set("errors.leaf_spine.ber=" + ber)
      .set("errors.spine_leaf.ber=" + ber);
}

class LinkRetry : public ::testing::Test {
 protected:
  // One database per named run, made on first use and kept for the suite.
  static const std::string& run(const std::string& name, const Args& args) {
    static std::map<std::string, std::string> paths;
    auto it = paths.find(name);
    if (it == paths.end()) {
      const std::string path = dir()->file(name + ".db");
      Args a = args;
      const ProcResult r = run_fabricsim(a.opt("--db", path), 120);
      EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
      summaries()[name] = r.out;
      it = paths.emplace(name, path).first;
    }
    return it->second;
  }
  static std::map<std::string, std::string>& summaries() {  // each named run's printed summary
    static std::map<std::string, std::string> s;
    return s;
  }
  static const std::string& retry_on(const std::string& ber) {
    return run("retry_on_" + ber, full_load(ber).opt("--time", "2200us"));
  }
  static const std::string& piggyback_on(const std::string& ber) {
    return run("piggyback_" + ber, full_load(ber).set("link.retry.ack_piggyback=true").opt("--time", "2200us"));
  }
  static const std::string& retry_off() {
    return run("retry_off",
               full_load("1e-7").set("link.retry=false").set("leaf.e2e.timeout=20us").opt("--time", "3ms"));
  }
  static std::unique_ptr<TempDir>& dir() {
    static std::unique_ptr<TempDir> d;
    if (!d) d = std::make_unique<TempDir>();
    return d;
  }
  static void TearDownTestSuite() { dir().reset(); }

  // Deliveries of a (flow, destination) whose frame id is below the one
  // delivered before it: frame ids grow in creation order at each source.
  static int64_t out_of_order(Db& db) {
    return db.integer(
        "WITH d AS (SELECT frame_id, lag(frame_id) OVER (PARTITION BY flow_id, dst_port ORDER BY t_delivered_ps, "
        "rowid) "
        "AS prev FROM deliveries) SELECT count(*) FROM d WHERE prev > frame_id");
  }
  static double latency_percentile_ns(Db& db, int percent) {
    return db.real(
        "SELECT (t_delivered_ps - t_created_ps) / 1000.0 FROM deliveries ORDER BY 1 LIMIT 1 OFFSET "
        "(SELECT count(*) * " +
        std::to_string(percent) + " / 100 FROM deliveries)");
  }
  static double sample_sum(Db& db, const std::string& metric) {
    return db.real("SELECT coalesce(sum(value), 0) FROM v_run_totals WHERE metric = '" + metric + "'");
  }
  // Every frame arrived once and in order, none dropped, although errors did
  // happen and were replayed: at 1e-7 a 256 B packet is hit with p = 2e-4,
  // over roughly 2 million packets and control messages.
  static void expect_exact_recovery(Db& db) {
    EXPECT_GT(db.integer("SELECT count(*) FROM frames WHERE t_injected_ps IS NOT NULL"), 100000);
    EXPECT_EQ(frames_not_delivered_once(db, kStopPs), 0);
    EXPECT_EQ(out_of_order(db), 0);
    EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), 0);
    EXPECT_GT(sample_sum(db, "corrupted"), 100);
    EXPECT_GE(sample_sum(db, "replays"), sample_sum(db, "corrupted"));
  }
};

TEST_F(LinkRetry, RetryDeliversEveryFrameOnceAndInOrderAtBer1e7) {
  Db db(retry_on("1e-7"));
  expect_exact_recovery(db);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'link_replay'"), 100);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind = 'retransmission'"), 0);
}

// The what-if link.retry.ack_piggyback: link ACKs ride on the reverse
// link's messages. Recovery stays exact (an ACK on a corrupted message is
// lost, the next covers it), and ACKs of their own become the exception.
TEST_F(LinkRetry, PiggybackedLinkAcksKeepEveryFrameOnceAndInOrderAtBer1e7) {
  Db db(piggyback_on("1e-7"));
  expect_exact_recovery(db);
  Db spec(retry_on("1e-7"));
  const double own = sample_sum(db, "link_messages_link_ack");
  const double spec_own = sample_sum(spec, "link_messages_link_ack");
  EXPECT_EQ(sample_sum(spec, "link_acks_carried"), 0);
  EXPECT_GT(sample_sum(db, "link_acks_carried"), spec_own);
  EXPECT_LT(own, spec_own / 3) << "link ACKs of their own: " << own << " against " << spec_own;
  EXPECT_NE(summaries()["piggyback_1e-7"].find("link ACKs: "), std::string::npos) << summaries()["piggyback_1e-7"];
  EXPECT_EQ(summaries()["retry_on_1e-7"].find("link ACKs: "), std::string::npos);
}

TEST_F(LinkRetry, WithoutRetryEndToEndRetransmissionRecoversEveryFrame) {
  Db db(retry_off());
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = 'link'"), 50);  // packets lost on the links
  EXPECT_EQ(frames_not_delivered_once(db, kStopPs), 0);
  EXPECT_EQ(out_of_order(db), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'retransmission'"), 50);
  EXPECT_EQ(sample_sum(db, "replays"), 0);
}

// Without any recovery a lost packet leaves its copy incomplete at the
// target's egress, which forwards each source's copies in order: that
// source's later copies wait behind it, their grants are never returned,
// the lossless ingress fills and PAUSEs its CNA. The run stalls.
TEST_F(LinkRetry, WithoutRetryOrRetransmissionFramesAreLostAndTheFabricStalls) {
  const std::string path = dir()->file("no_recovery.db");
  Args a = full_load("1e-7").set("link.retry=false").set("leaf.e2e.retransmit=false").opt("--time", "2200us");
  const ProcResult r = run_fabricsim(a.opt("--db", path), 120);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_NE(r.err.find("stall"), std::string::npos) << r.err;
  Db db(path);
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = 'link'"), 0);
  EXPECT_GT(frames_not_delivered_once(db, kStopPs), 1000);
}

TEST_F(LinkRetry, LatencyRisesWithTheBitErrorRate) {
  Db clean(retry_on("0"));
  Db some(retry_on("1e-7"));
  Db many(retry_on("1e-6"));
  EXPECT_EQ(frames_not_delivered_once(many, kStopPs), 0);
  const double p99_clean = latency_percentile_ns(clean, 99), p99_many = latency_percentile_ns(many, 99);
  EXPECT_GE(latency_percentile_ns(some, 99), p99_clean);
  EXPECT_GT(p99_many, 1.05 * p99_clean) << "p99 " << p99_clean << " ns at 0, " << p99_many << " ns at 1e-6";
  EXPECT_GT(many.real("SELECT avg(t_delivered_ps - t_created_ps) FROM deliveries"),
            clean.real("SELECT avg(t_delivered_ps - t_created_ps) FROM deliveries"));
  EXPECT_EQ(sample_sum(clean, "corrupted"), 0);
  EXPECT_EQ(sample_sum(clean, "replays"), 0);
}

// One scripted error on one link: exactly that message is corrupted and
// replayed, with its event on that link.
TEST_F(LinkRetry, ScriptedErrorHitsThatMessageOnly) {
  Db db(run("scripted", two_leaf_shift().set("errors.scripted=leaf0_spine1_up:10").opt("--time", "30us")));
  EXPECT_EQ(db.real("SELECT value FROM v_run_totals WHERE metric = 'corrupted' AND entity = 'leaf0_spine1_up'"), 1);
  EXPECT_EQ(sample_sum(db, "corrupted"), 1);
  EXPECT_EQ(db.real("SELECT value FROM v_run_totals WHERE metric = 'replay_episodes' AND entity = 'leaf0_spine1_up'"),
            1);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind = 'link_replay' AND entity = 'leaf0_spine1_up'"), 1);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind = 'link_replay'"), 1);
}

// CNA-leaf links have no link retry, and the leaves' end-to-end layer starts
// at the source leaf port: with the CNAs' transport off (its default) a
// corrupted frame is dropped (reason `link`) where it arrives, and every
// frame is either delivered once or dropped so.
TEST_F(LinkRetry, CorruptedFramesOnCnaLinksAreDroppedAndAccountedFor) {
  Db db(run("cna_errors", two_leaf_shift()
                              .set("errors.cna_leaf.packet_probability=0.01")
                              .set("traffic.stop=200us")
                              .opt("--time", "300us")));
  const int64_t dropped = db.integer("SELECT count(*) FROM drops WHERE reason = 'link'");
  EXPECT_GT(dropped, 100);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), dropped);
  EXPECT_EQ(db.integer("SELECT count(*) FROM frames WHERE t_injected_ps IS NOT NULL"),
            db.integer("SELECT count(*) FROM deliveries") + dropped);
  // Both directions: at the leaf's ingress (a whole frame) and at the CNA.
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE dst_port IS NULL"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE dst_port IS NOT NULL"), 0);
}

// With the CNAs' end-to-end transport on, the frames dropped on CNA-leaf
// links (both directions) are sent again by their source CNA: every frame
// arrives exactly once and in order. A short timeout covers frames lost at
// the very end of the traffic (a gap earlier is NAKed at once).
TEST_F(LinkRetry, CnaTransportRecoversFramesCorruptedOnCnaLinks) {
  Db db(run("cna_transport", cna_transport("ber=1e-7")
                                 .set("classes.lossless_priorities=3")
                                 .set("traffic.stop=2ms")
                                 .set("cna.e2e.timeout=100us")
                                 .opt("--time", "2400us")));
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = 'link' AND dst_port IS NULL"), 20);
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = 'link' AND dst_port IS NOT NULL"), 20);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops WHERE reason <> 'link'"), 0);
  EXPECT_GT(db.integer("SELECT count(*) FROM frames WHERE t_injected_ps IS NOT NULL"), 100000);
  EXPECT_EQ(frames_not_delivered_once(db, kStopPs), 0);
  EXPECT_EQ(out_of_order(db), 0);
  // Every frame dropped on a link was delivered after all.
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops d WHERE d.flow_id <> 4294967295 AND NOT EXISTS "
                       "(SELECT 1 FROM deliveries v WHERE v.frame_id = d.frame_id)"),
            0);
  EXPECT_GT(db.integer("SELECT count(*) FROM v_events WHERE kind = 'retransmission' AND entity LIKE 'cna%'"), 100);
  EXPECT_EQ(db.integer("SELECT count(*) FROM v_events WHERE kind = 'retransmission' AND entity LIKE 'port%'"), 0);
  EXPECT_GT(sample_sum(db, "e2e_naks_sent"), 20);
  EXPECT_EQ(sample_sum(db, "e2e_unacknowledged"), 0);
}

// cna.e2e.priorities: frames of a priority it does not cover are not
// numbered, so their losses stay losses.
TEST_F(LinkRetry, CnaTransportCoversOnlyItsPriorities) {
  const Args args = cna_transport("packet_probability=0.01")
                        .set("cna.e2e.timeout=20us")
                        .set("traffic.stop=100us")
                        .opt("--time", "200us");
  Db covered(run("priorities_covered", Args(args).set("cna.e2e.priorities=3")));
  Db other(run("priorities_other", Args(args).set("cna.e2e.priorities=0-2,4-7")));
  const std::string retransmissions = "SELECT count(*) FROM v_events WHERE kind = 'retransmission'";
  EXPECT_GT(covered.integer(retransmissions), 0);
  EXPECT_EQ(frames_not_delivered_once(covered, 100 * kUs), 0);
  EXPECT_EQ(other.integer(retransmissions), 0);
  EXPECT_GT(frames_not_delivered_once(other, 100 * kUs), 0);
  EXPECT_EQ(sample_sum(other, "e2e_acks_sent"), 0);
}

TEST_F(LinkRetry, SameSeedSameRun) {
  const Args args = full_load("1e-6").set("traffic.stop=100us").opt("--time", "150us");
  Db a(run("seed_a", args));
  Db b(run("seed_b", args));
  const std::string q = "SELECT frame_id, dst_port, t_delivered_ps FROM deliveries ORDER BY 1, 2";
  EXPECT_EQ(a.dump(q), b.dump(q));
  const std::string e = "SELECT t_ps, kind, entity, value FROM v_events ORDER BY 1, 2, 3";
  EXPECT_EQ(a.dump(e), b.dump(e));
  EXPECT_GT(a.integer("SELECT count(*) FROM v_events WHERE kind = 'link_replay'"), 0);
}

}  // namespace
}  // namespace fabricsim_it
