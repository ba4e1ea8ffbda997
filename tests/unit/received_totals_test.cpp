// ReceivedTotals: what a destination received per flow (the subflow_summary
// rows), shared by the fabric's CNAs and the backplane's stations.
#include <gtest/gtest.h>

#include "model/recording/received_totals.h"

namespace fabric {
namespace {

TEST(ReceivedTotals, PerFlowTotalsInFlowOrder) {
  ReceivedTotals totals(PortId(7));
  totals.add(FlowId(5), 1000, 2'000, 300);
  totals.add(FlowId(2), 64, 2'500, 100);
  totals.add(FlowId(5), 500, 4'000, 900);
  EXPECT_EQ(totals.frames(), 3u);
  EXPECT_EQ(totals.bytes(), 1564u);
  const std::vector<SubflowSummary> s = totals.summaries();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(raw(s[0].flow), 2u);
  EXPECT_EQ(raw(s[1].flow), 5u);
  EXPECT_EQ(raw(s[1].dst), 7u);
  EXPECT_EQ(s[1].frames, 2u);
  EXPECT_EQ(s[1].bytes, 1500u);
  EXPECT_EQ(s[1].first_delivered, 2'000);
  EXPECT_EQ(s[1].last_delivered, 4'000);
  EXPECT_EQ(s[1].latency_sum, 1'200);
  EXPECT_EQ(s[1].latency_min, 300);
  EXPECT_EQ(s[1].latency_max, 900);
}

}  // namespace
}  // namespace fabric
