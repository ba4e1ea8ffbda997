// LeafEgress: credit arbiters per VL, reassembly per (source, VL), round
// robin service of sources with a complete next copy.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "model/leaf/leaf_egress.h"
#include "model/leaf/segmentation.h"
#include "model/link/tx_port.h"  // kNever
#include "tests/support/spec_params.h"

namespace fabric {
namespace {

const Vl kVl = unicast_vl(2);

LeafParams egress_params(uint32_t pool = 12, uint32_t quantum = 36) {
  LeafParams p = testing::spec_leaf_params();
  p.packet_bytes = 256;
  p.egress_pool_units = pool;
  p.arbiter_quantum_units = quantum;
  return p;
}

// All packets of one copy, in the given index order.
std::vector<FabricPacket> copy_packets(uint32_t src, uint32_t seq, uint32_t bytes, Vl vl = kVl) {
  std::vector<FabricPacket> out;
  const uint16_t n = segment_count(bytes, 256);
  for (uint16_t i = 0; i < n; ++i) {
    FabricPacket p;
    p.frame = FrameId((uint64_t{src} << 32) | seq);
    p.flow = FlowId(src);
    p.src = PortId(src);
    p.target = PortId(9);
    p.vl = vl;
    p.priority = static_cast<uint8_t>(priority_of(vl));
    p.index = i;
    p.count = n;
    p.frame_bytes = bytes;
    p.copy_seq = seq;
    p.created = 7;
    out.push_back(p);
  }
  return out;
}

// Delivers every packet of a copy at time t; returns on_packet of the last.
bool deliver(LeafEgress& e, uint32_t src, uint32_t seq, uint32_t bytes, Picos t, Vl vl = kVl) {
  bool ready = false;
  for (const auto& p : copy_packets(src, seq, bytes, vl)) ready = e.on_packet(p, t) == LeafEgress::Arrival::ready;
  return ready;
}

TEST(LeafEgress, RequestsFromTwoSourcesGetGrants) {
  const LeafParams params = egress_params(20);
  LeafEgress e(PortId(9), params);
  EXPECT_EQ(e.free_units(kVl), 20u);
  e.on_request(PortId(1), kVl, 6, 1);
  e.on_request(PortId(2), kVl, 8, 2);
  std::vector<EgressGrant> grants;
  e.arbitrate(grants);
  ASSERT_EQ(grants.size(), 2u);
  std::map<uint32_t, EgressGrant> by_src;
  for (const auto& g : grants) by_src.emplace(raw(g.src), g);
  ASSERT_EQ(by_src.count(1), 1u);
  ASSERT_EQ(by_src.count(2), 1u);
  EXPECT_EQ(by_src.at(1).units, 6u);
  EXPECT_EQ(by_src.at(1).frames, 1u);
  EXPECT_EQ(by_src.at(2).units, 8u);
  EXPECT_EQ(by_src.at(2).frames, 2u);
  for (const auto& g : grants) EXPECT_EQ(g.vl, kVl);
  EXPECT_EQ(e.free_units(kVl), 6u);
  EXPECT_EQ(e.free_units(unicast_vl(0)), 20u);  // other VLs have their own pool
}

TEST(LeafEgress, VlsAreArbitratedSeparately) {
  const LeafParams params = egress_params(10);
  LeafEgress e(PortId(9), params);
  e.on_request(PortId(1), kVl, 10, 1);
  e.on_request(PortId(1), unicast_vl(5), 10, 1);
  std::vector<EgressGrant> grants;
  e.arbitrate(grants);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_NE(grants[0].vl, grants[1].vl);
  EXPECT_EQ(e.free_units(kVl), 0u);
  EXPECT_EQ(e.free_units(unicast_vl(5)), 0u);
}

TEST(LeafEgress, CopiesFromTwoSourcesBecomeReady) {
  const LeafParams params = egress_params();
  LeafEgress e(PortId(9), params);
  auto a = copy_packets(1, 0, 1522);  // 6 packets
  auto b = copy_packets(2, 0, 600);   // 3 packets
  // Interleave and reverse the order of arrival.
  EXPECT_EQ(e.on_packet(a[5], 100), LeafEgress::Arrival::kept);
  EXPECT_EQ(e.on_packet(b[2], 110), LeafEgress::Arrival::kept);
  EXPECT_EQ(e.on_packet(a[0], 120), LeafEgress::Arrival::kept);
  EXPECT_EQ(e.on_packet(b[0], 130), LeafEgress::Arrival::kept);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(e.on_packet(a[i], 140), LeafEgress::Arrival::kept);
  EXPECT_EQ(e.on_packet(b[1], 150), LeafEgress::Arrival::ready);
  EXPECT_EQ(e.sources(), 2u);
  EXPECT_EQ(e.copies_held(), 2u);
  EXPECT_EQ(e.on_packet(a[4], 160), LeafEgress::Arrival::ready);

  auto n1 = e.next_copy(1000);
  ASSERT_TRUE(n1.copy.has_value());
  EXPECT_EQ(n1.copy->src, PortId(2));  // became ready first
  EXPECT_EQ(n1.copy->vl, kVl);
  EXPECT_EQ(n1.copy->meta.bytes, 600u);
  EXPECT_EQ(n1.copy->meta.segments, 3);
  auto n2 = e.next_copy(1000);
  ASSERT_TRUE(n2.copy.has_value());
  EXPECT_EQ(n2.copy->src, PortId(1));
  EXPECT_EQ(n2.copy->meta.frame, FrameId(uint64_t{1} << 32));
  EXPECT_EQ(n2.copy->meta.segments, 6);
  EXPECT_EQ(n2.copy->meta.created, 7);
  auto n3 = e.next_copy(1000);
  EXPECT_FALSE(n3.copy.has_value());
  EXPECT_EQ(n3.retry_at, kNever);
  EXPECT_EQ(e.copies_held(), 0u);
}

TEST(LeafEgress, NextCopyServesSourcesRoundRobin) {
  const LeafParams params = egress_params();
  LeafEgress e(PortId(9), params);
  // Source 1 gets all its copies in first, then source 2, then source 3.
  for (uint32_t src : {1u, 2u, 3u})
    for (uint32_t seq = 0; seq < 4; ++seq) deliver(e, src, seq, 300, 10);
  std::vector<uint32_t> order;
  std::map<uint32_t, uint32_t> next_seq;
  for (int i = 0; i < 12; ++i) {
    auto n = e.next_copy(100);
    ASSERT_TRUE(n.copy.has_value()) << i;
    const uint32_t src = raw(n.copy->src);
    order.push_back(src);
    EXPECT_EQ(n.copy->meta.frame, FrameId((uint64_t{src} << 32) | next_seq[src]++)) << "in order per source";
  }
  const std::vector<uint32_t> expected{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
  EXPECT_EQ(order, expected);
  EXPECT_FALSE(e.next_copy(100).copy.has_value());
}

TEST(LeafEgress, NextCopyReportsRetryAtForFutureReadyCopy) {
  const LeafParams params = egress_params();
  LeafEgress e(PortId(9), params);
  deliver(e, 1, 0, 1000, 500);
  deliver(e, 2, 0, 1000, 300);
  auto n = e.next_copy(100);
  EXPECT_FALSE(n.copy.has_value());
  EXPECT_EQ(n.retry_at, 300);
  n = e.next_copy(299);
  EXPECT_FALSE(n.copy.has_value());
  EXPECT_EQ(n.retry_at, 300);
  n = e.next_copy(300);
  ASSERT_TRUE(n.copy.has_value());
  EXPECT_EQ(n.copy->src, PortId(2));
  n = e.next_copy(400);
  EXPECT_FALSE(n.copy.has_value());
  EXPECT_EQ(n.retry_at, 500);
  n = e.next_copy(500);
  ASSERT_TRUE(n.copy.has_value());
  EXPECT_EQ(n.copy->src, PortId(1));
}

TEST(LeafEgress, ReadyAtIsTheLastPacketsEntryTime) {
  const LeafParams params = egress_params();
  LeafEgress e(PortId(9), params);
  auto pk = copy_packets(4, 0, 1000);  // 4 packets
  e.on_packet(pk[2], 50);
  e.on_packet(pk[0], 900);
  e.on_packet(pk[3], 70);
  e.on_packet(pk[1], 80);
  auto n = e.next_copy(899);
  EXPECT_FALSE(n.copy.has_value());
  EXPECT_EQ(n.retry_at, 900);
  EXPECT_TRUE(e.next_copy(900).copy.has_value());
}

TEST(LeafEgress, FutureCopyDoesNotBlockAReadyOne) {
  const LeafParams params = egress_params();
  LeafEgress e(PortId(9), params);
  deliver(e, 1, 0, 256, 1000);
  deliver(e, 2, 0, 256, 10);
  auto n = e.next_copy(20);
  ASSERT_TRUE(n.copy.has_value());
  EXPECT_EQ(n.copy->src, PortId(2));
  n = e.next_copy(20);
  EXPECT_FALSE(n.copy.has_value());
  EXPECT_EQ(n.retry_at, 1000);
}

TEST(LeafEgress, OnForwardedReturnsUnitsSoABlockedRequestIsGranted) {
  const LeafParams params = egress_params(12);
  LeafEgress e(PortId(9), params);
  e.on_request(PortId(1), kVl, 6, 1);
  e.on_request(PortId(2), kVl, 6, 1);
  e.on_request(PortId(3), kVl, 4, 1);
  std::vector<EgressGrant> grants;
  e.arbitrate(grants);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(e.free_units(kVl), 0u);
  grants.clear();
  e.arbitrate(grants);
  EXPECT_TRUE(grants.empty());

  deliver(e, 1, 0, 1522, 10);  // 6 units
  auto n = e.next_copy(10);
  ASSERT_TRUE(n.copy.has_value());
  e.on_forwarded(*n.copy);
  EXPECT_EQ(e.free_units(kVl), 6u);
  e.arbitrate(grants);
  ASSERT_EQ(grants.size(), 1u);
  EXPECT_EQ(grants[0].src, PortId(3));
  EXPECT_EQ(grants[0].units, 4u);
  EXPECT_EQ(e.free_units(kVl), 2u);

  deliver(e, 2, 0, 1522, 20);
  n = e.next_copy(20);
  ASSERT_TRUE(n.copy.has_value());
  e.on_forwarded(*n.copy);
  deliver(e, 3, 0, 1000, 30);
  n = e.next_copy(30);
  ASSERT_TRUE(n.copy.has_value());
  e.on_forwarded(*n.copy);
  EXPECT_EQ(e.free_units(kVl), 12u);
}

}  // namespace
}  // namespace fabric

namespace fabric {
namespace {

// Two sources backlogged on priorities 1 and 5 with weights 3 and 1: the
// egress forwards three copies of priority 1 per copy of priority 5.
TEST(LeafEgressWeights, PriorityWeightsShareTheEgressPort) {
  LeafParams params = egress_params(1000);
  params.egress_priority_weights = {1, 3, 1, 1, 1, 1, 1, 1};
  LeafEgress e(PortId(9), params);
  for (uint32_t seq = 0; seq < 40; ++seq) {
    deliver(e, 1, seq, 256, 0, unicast_vl(1));
    deliver(e, 2, seq, 256, 0, unicast_vl(5));
  }
  std::map<int, int> served;
  for (int i = 0; i < 40; ++i) {
    LeafEgress::Next n = e.next_copy(10);
    ASSERT_TRUE(n.copy.has_value());
    ++served[priority_of(n.copy->vl)];
  }
  EXPECT_EQ(served[1], 30);
  EXPECT_EQ(served[5], 10);
}

// With equal weights the two priorities alternate, and a priority with
// nothing ready does not hold the port.
TEST(LeafEgressWeights, EqualWeightsAlternateAndIdlePrioritiesAreSkipped) {
  const LeafParams params = egress_params(1000);  // LeafEgress keeps a reference
  LeafEgress e(PortId(9), params);
  for (uint32_t seq = 0; seq < 4; ++seq) {
    deliver(e, 1, seq, 256, 0, unicast_vl(0));
    deliver(e, 2, seq, 256, 0, unicast_vl(7));
  }
  std::vector<int> order;
  for (int i = 0; i < 8; ++i) order.push_back(priority_of(e.next_copy(10).copy->vl));
  EXPECT_EQ(order, (std::vector<int>{7, 0, 7, 0, 7, 0, 7, 0}));
  EXPECT_FALSE(e.next_copy(10).copy.has_value());
}

}  // namespace
}  // namespace fabric

namespace fabric {
namespace {

// A surrogate's loop asks LoopRoom before it hands a copy back: this one
// answers by the copy's source port.
class FakeLoopRoom final : public LoopRoom {
 public:
  std::map<uint32_t, RoomShortage> by_src;
  RoomShortage shortage(const FrameHeader& copy) const override {
    auto it = by_src.find(raw(copy.src));
    return it == by_src.end() ? RoomShortage::none : it->second;
  }
};

// A copy whose frame would not fit waits and marks its VL blocked; one that
// lacks headers (not payload room) also marks it blocked by headers; a copy
// of another source that fits goes ahead.
TEST(LeafEgressLoopRoom, CopiesThatWouldNotFitWaitAndSayWhy) {
  const LeafParams params = egress_params(1000);
  LeafEgress e(PortId(9), params);
  const Vl payload_short = unicast_vl(1), headers_short = unicast_vl(3);
  deliver(e, 1, 0, 256, 0, payload_short);
  deliver(e, 2, 0, 256, 0, headers_short);
  deliver(e, 3, 0, 256, 0, kVl);
  FakeLoopRoom room;
  room.by_src[1] = RoomShortage::payload;
  room.by_src[2] = RoomShortage::headers;
  LeafEgress::Next n = e.next_copy(10, &room);
  ASSERT_TRUE(n.copy.has_value());
  EXPECT_EQ(n.copy->src, PortId(3));
  EXPECT_FALSE(e.next_copy(10, &room).copy.has_value());
  EXPECT_TRUE(e.blocked().test(raw(payload_short)));
  EXPECT_TRUE(e.blocked().test(raw(headers_short)));
  EXPECT_FALSE(e.blocked_by_headers().test(raw(payload_short)));
  EXPECT_TRUE(e.blocked_by_headers().test(raw(headers_short)));
  EXPECT_EQ(e.blocked().count(), 2u);
  // Room frees for the headers: that copy goes, and the blocks are recomputed.
  room.by_src.erase(2);
  n = e.next_copy(10, &room);
  ASSERT_TRUE(n.copy.has_value());
  EXPECT_EQ(n.copy->src, PortId(2));
  EXPECT_FALSE(e.blocked_by_headers().any());
}

}  // namespace
}  // namespace fabric
