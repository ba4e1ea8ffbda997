// LeafIngress: admission against payload and header pools, VOQs, credit use,
// ACK freeing, PAUSE thresholds.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "model/leaf/leaf_ingress.h"
#include "tests/support/spec_params.h"

namespace fabric {
namespace {

constexpr uint8_t kLossy = 0;
constexpr uint8_t kLossless = 3;

LeafParams small_params() {
  LeafParams p = testing::spec_leaf_params();
  p.packet_bytes = 256;
  p.lossy_threshold_units = 10;
  p.lossless_pool_units = 20;
  p.pause_enabled = true;
  p.pause_qhi_units = 12;
  p.pause_qlow_units = 5;
  p.header_pool_lossy = 100;
  p.header_pool_lossless = 100;
  p.max_frame_units = 36;
  p.lossless.set(kLossless);
  return p;
}

EthernetFrame frame(uint32_t bytes, uint8_t priority, uint64_t id = 1) {
  EthernetFrame f;
  f.frame = FrameId(id);
  f.flow = FlowId(9);
  f.src = PortId(2);
  f.bytes = bytes;
  f.priority = priority;
  f.created = 1234;
  return f;
}

TEST(LeafIngress, AdmittedFrameIsStoredAndQueued) {
  const LeafParams p = small_params();
  LeafIngress in(PortId(2), p);
  auto a = in.admit(frame(1522, kLossy, 77), PortId(7), LeafId(1));
  ASSERT_TRUE(a.voq.has_value());
  EXPECT_EQ(in.lossy_units(), 6u);
  EXPECT_EQ(in.headers(unicast_vl(kLossy)), 1u);
  Voq& q = in.voq(*a.voq);
  EXPECT_EQ(q.target, PortId(7));
  EXPECT_EQ(q.target_leaf, LeafId(1));
  EXPECT_EQ(q.vl, unicast_vl(kLossy));
  ASSERT_EQ(q.waiting.size(), 1u);
  const StoredFrame& s = in.frame(q.waiting.front());
  EXPECT_EQ(s.frame, FrameId(77));
  EXPECT_EQ(s.units, 6);
  EXPECT_EQ(s.bytes, 1522u);
  EXPECT_EQ(in.head_units(q), 6u);
  EXPECT_EQ(in.find_voq(PortId(7), unicast_vl(kLossy)), a.voq);
  EXPECT_FALSE(in.find_voq(PortId(7), unicast_vl(kLossless)).has_value());
  // Same target and VL share the VOQ; another target gets its own.
  EXPECT_EQ(in.admit(frame(64, kLossy), PortId(7), LeafId(1)).voq, a.voq);
  auto b = in.admit(frame(64, kLossy), PortId(8), LeafId(1));
  ASSERT_TRUE(b.voq.has_value());
  EXPECT_NE(*b.voq, *a.voq);
  EXPECT_EQ(in.voq_count(), 2u);
  EXPECT_EQ(in.copies_waiting(), 3u);
}

TEST(LeafIngress, LossyFrameDroppedOnceThePoolHoldsTth) {
  const LeafParams p = small_params();  // Tth = 10 units
  LeafIngress in(PortId(0), p);
  // 5-unit frames (1280 B): two reach exactly Tth, the third is dropped.
  EXPECT_TRUE(in.admit(frame(1280, kLossy), PortId(1), LeafId(0)).voq);
  EXPECT_TRUE(in.admit(frame(1280, kLossy), PortId(1), LeafId(0)).voq);
  EXPECT_EQ(in.lossy_units(), 10u);
  auto a = in.admit(frame(64, kLossy), PortId(1), LeafId(0));
  EXPECT_FALSE(a.voq.has_value());
  EXPECT_EQ(a.reason, DropReason::payload);
  EXPECT_EQ(in.lossy_units(), 10u);
  EXPECT_EQ(in.headers(unicast_vl(kLossy)), 2u);
  // The lossless pool is separate.
  EXPECT_TRUE(in.admit(frame(1280, kLossless), PortId(1), LeafId(0)).voq);
  EXPECT_EQ(in.lossless_units(kLossless), 5u);
}

TEST(LeafIngress, LossyPoolAdmitsBelowTthAndMayOvershootByOneFrame) {
  const LeafParams p = small_params();
  LeafIngress in(PortId(0), p);
  EXPECT_TRUE(in.admit(frame(9 * 256, kLossy), PortId(1), LeafId(0)).voq);  // 9 < 10
  EXPECT_TRUE(in.admit(frame(9216, kLossy), PortId(1), LeafId(0)).voq);     // 9 + 36
  EXPECT_EQ(in.lossy_units(), 45u);
  EXPECT_EQ(in.admit(frame(64, kLossy), PortId(1), LeafId(0)).reason, DropReason::payload);
}

TEST(LeafIngress, HeaderPoolExhaustionGivesBackPayload) {
  LeafParams p = small_params();
  p.header_pool_lossy = 2;
  LeafIngress in(PortId(0), p);
  EXPECT_TRUE(in.admit(frame(256, kLossy), PortId(1), LeafId(0)).voq);
  EXPECT_TRUE(in.admit(frame(512, kLossy), PortId(2), LeafId(0)).voq);
  EXPECT_EQ(in.lossy_units(), 3u);
  auto a = in.admit(frame(1522, kLossy), PortId(3), LeafId(0));
  EXPECT_FALSE(a.voq.has_value());
  EXPECT_EQ(a.reason, DropReason::header_pool);
  EXPECT_EQ(in.lossy_units(), 3u) << "payload units of the dropped frame not given back";
  EXPECT_EQ(in.headers(unicast_vl(kLossy)), 2u);
  EXPECT_EQ(in.copies_waiting(), 2u);
  // Other VLs have their own header pools.
  EXPECT_TRUE(in.admit(frame(256, 1), PortId(1), LeafId(0)).voq);
}

TEST(LeafIngress, GrantCoversHeadAndStartCopyUsesCredit) {
  const LeafParams p = small_params();
  LeafIngress in(PortId(0), p);
  const uint32_t q = *in.admit(frame(1522, kLossy, 1), PortId(5), LeafId(0)).voq;  // 6 units
  in.admit(frame(300, kLossy, 2), PortId(5), LeafId(0));                           // 2 units
  Voq& v = in.voq(q);
  EXPECT_FALSE(in.head_covered(v));
  EXPECT_THROW(in.start_copy(q), std::logic_error);
  in.on_grant(q, 5);
  EXPECT_FALSE(in.head_covered(v));
  EXPECT_THROW(in.start_copy(q), std::logic_error);
  EXPECT_EQ(v.credits, 5u);
  in.on_grant(q, 3);
  EXPECT_TRUE(in.head_covered(v));
  auto [slot0, seq0] = in.start_copy(q);
  EXPECT_EQ(in.frame(slot0).frame, FrameId(1));
  EXPECT_EQ(seq0, 0u);
  EXPECT_EQ(v.credits, 2u);
  EXPECT_EQ(v.in_flight.size(), 1u);
  EXPECT_EQ(in.head_units(v), 2u);
  EXPECT_TRUE(in.head_covered(v));
  auto [slot1, seq1] = in.start_copy(q);
  EXPECT_EQ(in.frame(slot1).frame, FrameId(2));
  EXPECT_EQ(seq1, 1u);
  EXPECT_EQ(v.credits, 0u);
  EXPECT_FALSE(in.head_covered(v));  // nothing waiting
  EXPECT_EQ(in.head_units(v), 0u);
  EXPECT_THROW(in.start_copy(q), std::logic_error);
  EXPECT_EQ(v.credits, 0u);
  EXPECT_EQ(v.in_flight.size(), 2u);
  EXPECT_EQ(in.copies_waiting(), 2u);
}

TEST(LeafIngress, AckFreesHeaderAndPayload) {
  const LeafParams p = small_params();
  LeafIngress in(PortId(0), p);
  const uint32_t q = *in.admit(frame(1522, kLossy), PortId(5), LeafId(0)).voq;
  in.admit(frame(700, kLossy), PortId(5), LeafId(0));
  const auto admitted = in.admit(frame(4096, kLossless), PortId(5), LeafId(0));
  ASSERT_TRUE(admitted.voq.has_value());
  const uint32_t r = *admitted.voq;
  EXPECT_NE(r, q);
  in.on_grant(q, 9);
  in.on_grant(r, 16);
  in.start_copy(q);
  in.start_copy(q);
  in.start_copy(r);
  EXPECT_EQ(in.lossy_units(), 9u);
  EXPECT_EQ(in.lossless_units(kLossless), 16u);
  in.on_ack(q, 1);
  EXPECT_EQ(in.lossy_units(), 3u);
  EXPECT_EQ(in.headers(unicast_vl(kLossy)), 1u);
  EXPECT_THROW(in.on_ack(q, 2), std::logic_error);
  EXPECT_EQ(in.lossy_units(), 3u);
  in.on_ack(q, 1);
  in.on_ack(r, 1);
  EXPECT_EQ(in.lossy_units(), 0u);
  EXPECT_EQ(in.lossless_units(kLossless), 0u);
  EXPECT_EQ(in.headers(unicast_vl(kLossy)), 0u);
  EXPECT_EQ(in.headers(unicast_vl(kLossless)), 0u);
  EXPECT_EQ(in.copies_waiting(), 0u);
  EXPECT_THROW(in.on_ack(q, 1), std::logic_error);
}

TEST(LeafIngress, AckOfCopiesNotYetSentThrows) {
  const LeafParams p = small_params();
  LeafIngress in(PortId(0), p);
  const uint32_t q = *in.admit(frame(64, kLossy), PortId(5), LeafId(0)).voq;
  EXPECT_THROW(in.on_ack(q, 1), std::logic_error);  // waiting, not in flight
  EXPECT_EQ(in.lossy_units(), 1u);
  EXPECT_EQ(in.headers(unicast_vl(kLossy)), 1u);
}

TEST(LeafIngress, FreedSlotsAreReusedAndPoolReturnsToZero) {
  const LeafParams p = small_params();
  LeafIngress in(PortId(0), p);
  for (int round = 0; round < 50; ++round) {
    const uint32_t q = *in.admit(frame(1000, kLossy, round), PortId(3), LeafId(0)).voq;
    in.on_grant(q, 4);
    auto [slot, seq] = in.start_copy(q);
    EXPECT_EQ(seq, static_cast<uint32_t>(round));
    EXPECT_EQ(slot, 0u);
    EXPECT_EQ(in.frame(slot).frame, FrameId(round));
    in.on_ack(q, 1);
    ASSERT_EQ(in.lossy_units(), 0u);
  }
}

// Fills a lossless pool one unit at a time: returns the VOQ.
uint32_t admit_units(LeafIngress& in, int n) {
  uint32_t q = 0;
  for (int i = 0; i < n; ++i) q = *in.admit(frame(256, kLossless), PortId(1), LeafId(0)).voq;
  return q;
}

TEST(LeafIngress, PauseStopAboveQhiGoBelowQlow) {
  const LeafParams p = small_params();  // Qhi 12, Qlow 5
  LeafIngress in(PortId(0), p);
  EXPECT_FALSE(in.pause_change(kLossless).has_value());
  uint32_t q = admit_units(in, 12);
  EXPECT_EQ(in.lossless_units(kLossless), 12u);
  EXPECT_FALSE(in.pause_change(kLossless).has_value()) << "STOP at Qhi, not above it";
  admit_units(in, 1);
  auto stop = in.pause_change(kLossless);
  ASSERT_TRUE(stop.has_value());
  EXPECT_EQ(stop->priority, kLossless);
  EXPECT_TRUE(stop->stop);
  EXPECT_FALSE(in.pause_change(kLossless).has_value()) << "STOP reported twice";
  admit_units(in, 3);
  EXPECT_FALSE(in.pause_change(kLossless).has_value());

  in.on_grant(q, 16);
  for (int i = 0; i < 16; ++i) in.start_copy(q);
  // Drain from 16 down to Qlow: still paused, no change.
  for (uint32_t used = 15; used >= 5; --used) {
    in.on_ack(q, 1);
    ASSERT_EQ(in.lossless_units(kLossless), used);
    ASSERT_FALSE(in.pause_change(kLossless).has_value()) << "at " << used;
  }
  in.on_ack(q, 1);  // 4 < Qlow
  auto go = in.pause_change(kLossless);
  ASSERT_TRUE(go.has_value());
  EXPECT_FALSE(go->stop);
  EXPECT_FALSE(in.pause_change(kLossless).has_value());
  // Between Qlow and Qhi going up: nothing; above Qhi: STOP again.
  admit_units(in, 8);
  EXPECT_FALSE(in.pause_change(kLossless).has_value());
  admit_units(in, 1);
  auto again = in.pause_change(kLossless);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again->stop);
}

TEST(LeafIngress, NoPauseForLossyPrioritiesOrWhenDisabled) {
  LeafParams p = small_params();
  LeafIngress in(PortId(0), p);
  for (int i = 0; i < 10; ++i) in.admit(frame(256, kLossy), PortId(1), LeafId(0));
  EXPECT_FALSE(in.pause_change(kLossy).has_value());

  LeafParams off = small_params();
  off.pause_enabled = false;
  LeafIngress in2(PortId(0), off);
  admit_units(in2, 20);
  EXPECT_FALSE(in2.pause_change(kLossless).has_value());
}

// A lossless frame is never dropped: the caller asks room_for first, and
// admitting one without room is a broken invariant, not a drop.
TEST(LeafIngress, LosslessFrameWithoutPayloadRoomIsNotAdmitted) {
  const LeafParams p = small_params();  // lossless pool 20 units
  LeafIngress in(PortId(0), p);
  admit_units(in, 18);
  EXPECT_EQ(in.room_for(frame(768, kLossless), HeaderDemand{1, 0}), RoomShortage::payload);
  EXPECT_THROW(in.admit(frame(768, kLossless), PortId(1), LeafId(0)), std::logic_error);
  EXPECT_EQ(in.lossless_units(kLossless), 18u);
  EXPECT_EQ(in.room_for(frame(512, kLossless), HeaderDemand{1, 0}), RoomShortage::none);
  EXPECT_TRUE(in.admit(frame(512, kLossless), PortId(1), LeafId(0)).voq);
  EXPECT_EQ(in.lossless_units(kLossless), 20u);
  // A lossy frame is never short of room: its drops decide.
  EXPECT_EQ(in.room_for(frame(9000, kLossy), HeaderDemand{8, 0}), RoomShortage::none);
}

TEST(BufferPool, TakeGiveBackAndPeak) {
  BufferPool pool(10);
  EXPECT_TRUE(pool.try_take(7));
  EXPECT_FALSE(pool.try_take(4));
  EXPECT_EQ(pool.used(), 7u);
  EXPECT_TRUE(pool.can_take(3));
  EXPECT_TRUE(pool.try_take(3));
  EXPECT_EQ(pool.free(), 0u);
  pool.give_back(6);
  EXPECT_EQ(pool.used(), 4u);
  EXPECT_EQ(pool.peak(), 10u);
  EXPECT_THROW(pool.give_back(5), std::logic_error);
  EXPECT_EQ(pool.used(), 4u);
  pool.give_back(4);
  EXPECT_EQ(pool.used(), 0u);
  EXPECT_EQ(pool.capacity(), 10u);
}

}  // namespace
}  // namespace fabric

namespace fabric {
namespace {

// VLs by level: a copy towards a surrogate travels on the VL of the level the
// frame is stored at (the source's copies to first-level surrogates on the
// starting VL, a level-k surrogate's copies to level k+1 on VL k); a copy to
// a final destination on the starting VL; the payload stays in the pool of
// the VL it arrived on.
TEST(LeafIngress, CopiesTravelOnTheVlOfTheirHop) {
  LeafParams p = small_params();
  p.voq_drop = LeafParams::VoqDrop::off;
  for (uint8_t levels = 0; levels <= 3; ++levels) {
    SCOPED_TRACE("frame at level " + std::to_string(levels));
    LeafIngress in(PortId(640), p);
    EthernetFrame f = frame(1522, kLossless, 10 + levels);
    f.levels = levels;
    const uint32_t slot = *in.store_payload(f, true);
    const uint32_t deeper = *in.queue_copy(slot, PortId(641), LeafId(1), true).voq;
    const uint32_t final_copy = *in.queue_copy(slot, PortId(7), LeafId(1), false).voq;
    in.seal(slot);
    EXPECT_EQ(raw(in.voq(deeper).vl), kLossless * 4 + levels);
    EXPECT_EQ(in.voq(final_copy).vl, unicast_vl(kLossless));
    EXPECT_EQ(raw(in.frame(slot).pool_vl), kLossless * 4 + (levels > 0 ? levels - 1 : 0));
    // Headers live in the pool of the VL they are sent on: at the source both
    // copies use the starting VL.
    EXPECT_EQ(in.headers(in.voq(deeper).vl), levels == 0 ? 2u : 1u);
  }
}

// End-to-end recovery: an ACK is cumulative (every copy of the VOQ below
// `through` is done), so a lost ACK is covered by the next one and a repeated
// one (after a retransmission's duplicate) changes nothing. The slot of a copy
// in flight is found by its sequence number until it is acknowledged.
TEST(LeafIngress, CumulativeAcksCoverLostOnesAndRepeatsChangeNothing) {
  const LeafParams p = small_params();
  LeafIngress in(PortId(0), p);
  uint32_t q = 0;
  for (int i = 0; i < 4; ++i) q = *in.admit(frame(256, kLossy, i), PortId(5), LeafId(0)).voq;
  in.on_grant(q, 4);
  std::vector<uint32_t> slots;
  for (int i = 0; i < 4; ++i) slots.push_back(in.start_copy(q).first);
  EXPECT_EQ(in.in_flight_slot(q, 2), slots[2]);
  EXPECT_EQ(in.on_ack_through(q, 1), 1u);  // copy 0
  EXPECT_EQ(in.on_ack_through(q, 3), 2u);  // copies 1 and 2: the ACK of copy 1 was lost
  EXPECT_FALSE(in.in_flight_slot(q, 2).has_value());
  EXPECT_EQ(LeafIngress::oldest_in_flight(in.voq(q)), 3u);
  EXPECT_EQ(in.on_ack_through(q, 3), 0u);  // a repeat
  EXPECT_EQ(in.on_ack_through(q, 2), 0u);  // a stale one
  EXPECT_EQ(in.lossy_units(), 1u);
  EXPECT_THROW(in.on_ack_through(q, 5), std::logic_error);  // copy 4 was never sent
  EXPECT_EQ(in.on_ack_through(q, 4), 1u);
  EXPECT_EQ(in.lossy_units(), 0u);
}

}  // namespace
}  // namespace fabric
