// What the configured traffic offers each fabric resource (the pre-run
// checks' demand, issue 50 item 3), by hand on small fabrics.
#include "platforms/fabric/traffic_demand.h"

#include <gtest/gtest.h>

namespace fabric {
namespace {

Geometry two_leaves() {
  Geometry g;
  g.leaves = 2;
  g.user_ports_per_leaf = 5;
  g.spines = 4;
  return g;
}

traffic::FlowSpec unicast(uint32_t id, uint32_t src, std::vector<uint32_t> dests, double gbps, int priority = 0) {
  traffic::FlowSpec f;
  f.id = FlowId(id);
  f.src = PortId(src);
  for (uint32_t d : dests) f.dests.push_back(PortId(d));
  f.rate_gbps = gbps;
  f.priority = priority;
  f.size = traffic::FrameSizeDistribution::parse("f", "1522");
  return f;
}

constexpr double kFrameShare = 1522.0 / 1542.0;  // frame bytes of the offered wire rate

TEST(TrafficDemand, AUnicastFlowSharesItsRateEvenlyAmongItsDestinations) {
  // Port 0 (leaf 0) to ports 1 (leaf 0) and 5 (leaf 1): half of it crosses.
  const TrafficDemand d = traffic_demand({unicast(1, 0, {1, 5}, 100)}, two_leaves(), {}, 100, 0);
  EXPECT_NEAR(d.leaf_out_gbps[0], 50 * kFrameShare, 1e-9);
  EXPECT_NEAR(d.leaf_in_gbps[1], 50 * kFrameShare, 1e-9);
  EXPECT_NEAR(d.port_remote_in_gbps[5], 50 * kFrameShare, 1e-9);
  EXPECT_EQ(d.port_remote_in_gbps[1], 0.0);
  EXPECT_NEAR(d.lossy_pair_gbps, 50 * kFrameShare, 1e-9);
  EXPECT_EQ(d.most_remote_senders, 1);
  EXPECT_EQ(d.largest_lossy_frame, 1522u);
}

TEST(TrafficDemand, LosslessFlowsCountTowardsTheLosslessPortNotTheLossyPairs) {
  const TrafficDemand d =
      traffic_demand({unicast(1, 0, {5}, 80, 3), unicast(2, 1, {6}, 40, 0)}, two_leaves(), {}, 100, 1 << 3);
  EXPECT_NEAR(d.lossless_port_out_gbps, 80 * kFrameShare, 1e-9);
  EXPECT_NEAR(d.lossy_pair_gbps, 40 * kFrameShare, 1e-9);
  EXPECT_TRUE(d.port_sends_lossless[0]);
  EXPECT_FALSE(d.port_sends_lossless[1]);
  EXPECT_NEAR(d.busiest(d.leaf_out_gbps), 120 * kFrameShare, 1e-9);
  EXPECT_EQ(d.most_remote_senders, 2);
}

TEST(TrafficDemand, AMulticastFlowLoadsEveryBranchOfItsTreeThatCrossesLeaves) {
  // Port 0 copies to port 1 (its leaf) and to surrogate 11 of leaf 1, which
  // copies to ports 5 and 6: one copy crosses the fabric.
  traffic::FlowSpec f = unicast(1, 0, {1, 5, 6}, 10);
  f.multicast = true;
  MulticastGroups groups;
  ReplicationTree tree;
  tree.source = PortId(0);
  tree.fanout[0] = {PortId(1), PortId(11)};
  tree.fanout[11] = {PortId(5), PortId(6)};
  groups.trees[1] = tree;
  const TrafficDemand d = traffic_demand({f}, two_leaves(), groups, 100, 0);
  EXPECT_NEAR(d.leaf_out_gbps[0], 10 * kFrameShare, 1e-9);
  EXPECT_NEAR(d.leaf_in_gbps[1], 10 * kFrameShare, 1e-9);
  EXPECT_EQ(d.port_remote_in_gbps[5], 0.0) << "the surrogate of its own leaf serves it";
}

}  // namespace
}  // namespace fabric
