// Sources that behave like sources (issue 18, section 5), on a 2-leaf
// fabric: two saturating flows of one CNA priority share its link equally,
// flows start at random phases of their period (a single frame exactly at
// its start), and a Poisson flow offers its rate on average.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

constexpr int64_t kRunPs = 5000 * kUs;  // a Poisson flow at 30 Gb/s: about 12000 frames, its rate known to about 1%
constexpr int64_t kWarmUpPs = 50 * kUs;
constexpr int64_t kPeriod1522At100G = 123360;  // ps

class IntegrationSources : public ::testing::Test {
 protected:
  static const std::string& run_db() {
    static std::string path;
    if (!dir()) {
      dir() = std::make_unique<TempDir>();
      path = dir()->file("sources.db");
      // a and b: port 0, priority 0, no rate given: each alone would fill
      // the link. c: Poisson at 30 Gb/s to the other leaf. d: one frame at 7 us.
      const Args args = Args()
                            .opt("--config", write_two_leaf_ini(*dir()))
                            .set("flow.a.src=0")
                            .set("flow.a.dst=1")
                            .set("flow.b.src=0")
                            .set("flow.b.dst=2")
                            .set("flow.c.src=3")
                            .set("flow.c.dst=5")
                            .set("flow.c.rate_gbps=30")
                            .set("flow.c.arrival=poisson")
                            .set("flow.d.src=4")
                            .set("flow.d.dst=6")
                            .set("flow.d.frames=1")
                            .set("flow.d.start=7us")
                            .opt("--time", "5ms")
                            .opt("--db", path);
      const ProcResult r = run_fabricsim(args);
      EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    }
    return path;
  }
  static std::unique_ptr<TempDir>& dir() {
    static std::unique_ptr<TempDir> d;
    return d;
  }
  static void TearDownTestSuite() { dir().reset(); }
};

// Before the round robin, a took every place b's departures freed in the
// shared queue: b got only its first 64 frames.
TEST_F(IntegrationSources, TwoSaturatingFlowsOnOnePriorityShareTheLinkEqually) {
  Db db(run_db());
  const auto rx = rx_gbps(db, kWarmUpPs, kRunPs);
  ASSERT_EQ(rx.count(1), 1u);
  ASSERT_EQ(rx.count(2), 1u);
  const double a = rx.at(1), b = rx.at(2);
  EXPECT_GT(a + b, 99.0) << "the CNA's link is not kept busy";
  EXPECT_NEAR(a, 50.0, 1.5) << "a gets " << a << " Gb/s, b " << b;
  EXPECT_NEAR(b, 50.0, 1.5) << "a gets " << a << " Gb/s, b " << b;
  // Saturating: offered at the port's line rate.
  EXPECT_EQ(db.dump("SELECT name, offered_gbps FROM flows WHERE name IN ('a', 'b') ORDER BY name"),
            "a|100.0\nb|100.0\n");
}

// On 10G ports a flow without a rate offers 10 Gb/s, not the old fixed 100.
TEST(IntegrationSourcesLineRate, FlowWithoutRateOffersItsPortsRate) {
  TempDir dir;
  const std::string path = dir.file("ten.db");
  const ProcResult r = run_fabricsim(Args()
                                         .opt("--config", write_two_leaf_ini(dir))
                                         .set("topology.user_port_gbps=10")
                                         .set("flow.u.src=0")
                                         .set("flow.u.dst=5")
                                         .opt("--time", "200us")
                                         .opt("--db", path));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(path);
  EXPECT_EQ(db.dump("SELECT name, offered_gbps FROM flows"), "u|10.0\n");
  const auto rx = rx_gbps(db, 20 * kUs, 200 * kUs);
  ASSERT_EQ(rx.count(5), 1u);
  EXPECT_NEAR(rx.at(5), 10.0, 0.2);  // its link full
}

std::string flow_frames(const std::string& flow, const std::string& what) {
  return "SELECT " + what + " FROM frames WHERE flow_id = (SELECT flow_id FROM flows WHERE name = '" + flow + "')";
}

TEST_F(IntegrationSources, PoissonFlowOffersItsRateWithExponentialGaps) {
  Db db(run_db());
  // Offered: every frame created in the run, sent or not; 5 ms hold about 12000 gaps.
  const double offered_bits = db.real(flow_frames("c", "sum(bytes + 20) * 8.0"));
  EXPECT_NEAR(offered_bits / (kRunPs * 1e-12) / 1e9, 30.0, 30.0 * 0.05);
  const auto rx = rx_gbps(db, 0, kRunPs);
  ASSERT_EQ(rx.count(5), 1u);
  EXPECT_NEAR(rx.at(5), 30.0, 30.0 * 0.05) << "delivered";
  std::vector<double> gaps;
  double previous = -1;
  for (const auto& row : db.rows(flow_frames("c", "t_created_ps") + " ORDER BY t_created_ps")) {
    const double t = std::stod(row[0]);
    if (previous >= 0) gaps.push_back(t - previous);
    previous = t;
  }
  ASSERT_GT(gaps.size(), 10000u);
  double sum = 0, squares = 0;
  for (double g : gaps) sum += g;
  const double mean = sum / gaps.size();
  for (double g : gaps) squares += (g - mean) * (g - mean);
  // Exponential gaps: standard deviation = mean (cbr frames of one size: 0).
  EXPECT_NEAR(std::sqrt(squares / gaps.size()) / mean, 1.0, 0.1);
}

TEST_F(IntegrationSources, FlowsStartAtRandomPhasesASingleFrameExactly) {
  Db db(run_db());
  const int64_t a = db.integer(flow_frames("a", "min(t_created_ps)"));
  const int64_t b = db.integer(flow_frames("b", "min(t_created_ps)"));
  EXPECT_GE(a, 0);
  EXPECT_LT(a, kPeriod1522At100G);
  EXPECT_GE(b, 0);
  EXPECT_LT(b, kPeriod1522At100G);
  EXPECT_NE(a, b) << "a and b started phase-aligned";
  EXPECT_EQ(db.dump(flow_frames("d", "t_created_ps")), "7000000\n");
}

}  // namespace
}  // namespace fabricsim_it
