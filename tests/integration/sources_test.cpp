// Sources that behave like sources (issue 18, section 5), on a 2-leaf
// fabric: two saturating flows of one CNA priority share its link equally.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

constexpr int64_t kRunPs = 1000 * kUs;
constexpr int64_t kWarmUpPs = 50 * kUs;

class IntegrationSources : public ::testing::Test {
 protected:
  static const std::string& run_db() {
    static std::string path;
    if (!dir()) {
      dir() = std::make_unique<TempDir>();
      path = dir()->file("sources.db");
      // a and b: port 0, priority 0, each alone could fill the link.
      const Args args = Args()
                            .opt("--config", write_two_leaf_ini(*dir()))
                            .set("flow.a.src=0").set("flow.a.dst=1").set("flow.a.rate_gbps=100")
                            .set("flow.b.src=0").set("flow.b.dst=2").set("flow.b.rate_gbps=100")
                            .opt("--time", "1ms")
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
}

}  // namespace
}  // namespace fabricsim_it
