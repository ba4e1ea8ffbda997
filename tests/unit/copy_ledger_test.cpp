// The conservation invariant (issue 50): every copy injected ends delivered
// once, dropped, or still in the fabric; a ledger that is told of a copy too
// many, or of a drained run that lost one, stops the run.
#include "model/invariants/copy_ledger.h"

#include <gtest/gtest.h>

#include "model/invariants/invariant_broken.h"

namespace fabric {
namespace {

FrameRecord injected(FlowId flow, uint64_t seq, Picos t = 1000) {
  return {FrameId(seq), flow, PortId(0), 1522, 0, 0, t};
}
DeliveryRecord delivery(FlowId flow, uint64_t seq, PortId dst) { return {FrameId(seq), flow, dst, 5000, 0, 1522, 0}; }
DropRecord drop(FlowId flow, uint64_t seq, PortId at, int64_t dst, DropReason reason) {
  return {FrameId(seq), flow, at, dst, reason, 3000};
}

// A group 0 -> {1, 9, 10, 11}: the source serves port 1 and surrogate 9,
// which serves 10 and 11 (and is a member itself).
LedgerFlow group_flow() {
  LedgerFlow f;
  f.id = FlowId(7);
  f.src = PortId(0);
  f.multicast = true;
  f.members = {1, 9, 10, 11};
  f.deliveries_through = deliveries_through(0, {{0, {1, 9}}, {9, {10, 11}}}, f.members);
  return f;
}

LedgerFlow unicast_flow(bool recovered = false) {
  LedgerFlow f;
  f.id = FlowId(3);
  f.src = PortId(0);
  f.drops_recovered = recovered;
  return f;
}

TEST(CopyLedger, ACopyToASurrogateCarriesTheDeliveriesBelowIt) {
  const LedgerFlow f = group_flow();
  EXPECT_EQ(f.deliveries_through.at(0), 4u);
  EXPECT_EQ(f.deliveries_through.at(9), 3u);
  EXPECT_EQ(f.deliveries_through.at(1), 1u);
}

TEST(CopyLedger, DeliveriesAndDropsAddUpToTheGroup) {
  CopyLedger ledger;
  ledger.add_flow(group_flow());
  ledger.injected(injected(FlowId(7), 1));
  ledger.delivered(delivery(FlowId(7), 1, PortId(1)));
  ledger.dropped(drop(FlowId(7), 1, PortId(0), 9, DropReason::voq_head));  // the surrogate's branch: 3 copies
  EXPECT_EQ(ledger.total().expected, 4u);
  EXPECT_EQ(ledger.total().dropped, 3u);
  EXPECT_EQ(ledger.total().in_fabric(), 0u);
  ledger.finish(10000, true);  // drained and all accounted for: holds
}

TEST(CopyLedger, AWholeFrameDroppedAtASurrogateLosesOnlyWhatItWasToReplicate) {
  CopyLedger ledger;
  ledger.add_flow(group_flow());
  ledger.injected(injected(FlowId(7), 1));
  ledger.delivered(delivery(FlowId(7), 1, PortId(1)));
  ledger.delivered(delivery(FlowId(7), 1, PortId(9)));
  ledger.dropped(drop(FlowId(7), 1, PortId(9), -1, DropReason::payload));
  EXPECT_EQ(ledger.total().dropped, 2u);
  EXPECT_EQ(ledger.total().in_fabric(), 0u);
}

TEST(CopyLedger, ADuplicateDeliveryStopsTheRun) {
  forget_broken_invariant();
  CopyLedger ledger;
  ledger.add_flow(unicast_flow());
  ledger.injected(injected(FlowId(3), 1));
  ledger.delivered(delivery(FlowId(3), 1, PortId(5)));
  EXPECT_THROW(ledger.delivered(delivery(FlowId(3), 1, PortId(5))), InvariantBroken);
  ASSERT_TRUE(first_broken_invariant());
  EXPECT_EQ(first_broken_invariant()->invariant(), invariant::kConservation);
  forget_broken_invariant();
}

TEST(CopyLedger, ADrainedRunThatLostACopyWithoutARecordStopsTheRun) {
  forget_broken_invariant();
  CopyLedger ledger;
  ledger.add_flow(unicast_flow());
  ledger.injected(injected(FlowId(3), 1));
  ledger.injected(injected(FlowId(3), 2));
  ledger.delivered(delivery(FlowId(3), 1, PortId(5)));
  ledger.finish(10000, false);  // not drained: the copy may still be on its way
  EXPECT_EQ(ledger.total().in_fabric(), 1u);
  EXPECT_THROW(ledger.finish(10000, true), InvariantBroken);
  forget_broken_invariant();
}

TEST(CopyLedger, APacketLostInsideTheFabricOrADropTheTransportRecoversLosesNoCopy) {
  CopyLedger ledger;
  ledger.add_flow(unicast_flow(true));
  LedgerFlow plain = unicast_flow();
  plain.id = FlowId(4);
  ledger.add_flow(plain);
  ledger.injected(injected(FlowId(3), 1));
  ledger.dropped(drop(FlowId(3), 1, PortId(0), 5, DropReason::voq_head));  // sent again by the CNA
  ledger.delivered(delivery(FlowId(3), 1, PortId(5)));
  ledger.injected(injected(FlowId(4), 2));
  ledger.dropped(drop(FlowId(4), 2, PortId(0), 5, DropReason::link));  // a packet on a leaf-spine link
  ledger.delivered(delivery(FlowId(4), 2, PortId(5)));                 // its copy sent again
  EXPECT_EQ(ledger.total().recovered, 2u);
  EXPECT_EQ(ledger.total().in_fabric(), 0u);
}

TEST(CopyLedger, FramesStillAtTheirSourceAndUnknownFlowsAreNotCounted) {
  CopyLedger ledger;
  ledger.add_flow(unicast_flow());
  ledger.injected(injected(FlowId(3), 1, -1));
  ledger.delivered(delivery(FlowId(99), 1, PortId(5)));  // the transport's ACK flow, say
  EXPECT_EQ(ledger.total().expected, 0u);
  EXPECT_EQ(ledger.total().delivered, 0u);
}

}  // namespace
}  // namespace fabric
