// Every copy accounted for (issue 50's conservation invariant), end to end:
// lossy runs that drain, unicast and multicast, balance injected copies
// against deliveries and drops, and the database holds the same numbers.
#include <gtest/gtest.h>

#include <string>

#include "tests/db/db_test_support.h"
#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// The summary's copies line: injected, delivered, dropped, in the fabric.
struct CopiesLine {
  unsigned long long injected = 0, delivered = 0, dropped = 0, in_fabric = 0;
  bool drained = false;
};

CopiesLine copies_line(const std::string& out) {
  CopiesLine c;
  const size_t at = out.find("  copies: ");
  EXPECT_NE(at, std::string::npos) << out;
  if (at == std::string::npos) return c;
  std::sscanf(out.c_str() + at, "  copies: %llu injected = %llu delivered + %llu dropped + %llu", &c.injected,
              &c.delivered, &c.dropped, &c.in_fabric);
  c.drained = out.find("(drained: all accounted for)", at) != std::string::npos;
  return c;
}

// perm640 at 400 m drops at the VOQ heads all run long; its sources stop at
// 20 us and the fabric is empty well before 60 us.
TEST(ConservationRun, ALossyPermutationThatDrainsAccountsForEveryCopy) {
  TempDir dir;
  const ProcResult r = run_fabricsim(Args()
                                         .opt("--study", "perm640")
                                         .opt("--time", "60us")
                                         .set("topology.leaf_spine_cable_m=400")
                                         .set("traffic.stop=20us")
                                         .opt("--db", dir.file("c.db")),
                                     600);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const CopiesLine c = copies_line(r.out);
  EXPECT_TRUE(c.drained) << r.out;
  EXPECT_GT(c.dropped, 1000u);
  EXPECT_EQ(c.in_fabric, 0u);
  EXPECT_EQ(c.injected, c.delivered + c.dropped);
  Db db(dir.file("c.db"));
  EXPECT_EQ(db.integer("SELECT count(*) FROM frames WHERE t_injected_ps IS NOT NULL"),
            static_cast<int64_t>(c.injected));
  EXPECT_EQ(db.integer("SELECT count(*) FROM deliveries"), static_cast<int64_t>(c.delivered));
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops"), static_cast<int64_t>(c.dropped));
  // The account as totals: the system's, and each sending port's adding up to it.
  const auto total = [&](const std::string& metric, const std::string& kind) {
    return db.integer("SELECT CAST(sum(value) AS INTEGER) FROM v_run_totals WHERE metric = '" + metric +
                      "' AND entity_kind = '" + kind + "'");
  };
  for (const std::string metric : {"copies_injected", "copies_delivered", "copies_dropped", "copies_in_fabric"})
    EXPECT_EQ(total(metric, "port"), total(metric, "system")) << metric;
  EXPECT_EQ(total("copies_injected", "system"), static_cast<int64_t>(c.injected));
  EXPECT_EQ(total("copies_in_fabric", "system"), 0);
  EXPECT_NE(r.out.find("    dropped by reason: voq_head "), std::string::npos) << r.out;
}

// E4e (a multicast group of 8 with drop from head under a congested member)
// cut to 0.3 ms of traffic: copies of the group dropped at the VOQ heads and
// delivered add up to 8 per frame, with the unicast flows' frames.
TEST(ConservationRun, AMulticastGroupDroppingAtTheVoqHeadsAccountsForEveryCopy) {
  TempDir dir;
  Args args = Args()
                  .opt("--study", "E4e")
                  .opt("--time", "1.5ms")
                  .opt("--record", "summary")
                  .set("flow.f1.stop=1.3ms")
                  .opt("--db", dir.file("c.db"));
  for (int u = 1; u <= 7; ++u) args.set("flow.u" + std::to_string(u) + ".schedule=1ms-1.3ms");
  const ProcResult r = run_fabricsim(args, 600);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const CopiesLine c = copies_line(r.out);
  EXPECT_TRUE(c.drained) << r.out;
  EXPECT_GT(c.dropped, 1000u);
  EXPECT_EQ(c.injected, c.delivered + c.dropped);
}

}  // namespace
}  // namespace fabricsim_it
