// Lossless admission (issue 18 §4): a lossless frame is admitted whole, its
// payload and every copy's header, or it waits at the port and the CNA is
// STOPped; lossless headers have private pools outside the header memory;
// a STOP the header pool called for says so.
#include <gtest/gtest.h>

#include <stdexcept>

#include "model/leaf/leaf_ingress.h"
#include "tests/support/spec_params.h"

namespace fabric {
namespace {

constexpr uint8_t kLossy = 0;
constexpr uint8_t kLossless = 3;

LeafParams lossless_params() {
  LeafParams p = testing::spec_leaf_params();
  p.packet_bytes = 256;
  p.lossless_pool_units = 100;
  p.pause_enabled = true;
  p.pause_qhi_units = 60;
  p.pause_qlow_units = 30;
  p.header_pool_lossless = 10;
  p.pause_headers_hi = 6;
  p.pause_headers_lo = 3;
  p.voq_drop = LeafParams::VoqDrop::off;
  p.lossless.set(kLossless);
  return p;
}

EthernetFrame frame(uint32_t bytes, uint8_t priority, uint8_t levels = 0, uint64_t id = 1) {
  EthernetFrame f;
  f.frame = FrameId(id);
  f.flow = FlowId(4);
  f.src = PortId(2);
  f.bytes = bytes;
  f.priority = priority;
  f.levels = levels;
  return f;
}

// Stores a multicast frame with `finals` copies to ports and `deeper` to surrogates.
uint32_t store_copies(LeafIngress& in, const EthernetFrame& f, int finals, int deeper) {
  const uint32_t slot = *in.store_payload(f, true);
  for (int i = 0; i < finals; ++i) EXPECT_TRUE(in.queue_copy(slot, PortId(10 + i), LeafId(0)).voq);
  for (int i = 0; i < deeper; ++i) EXPECT_TRUE(in.queue_copy(slot, PortId(641 + i), LeafId(1 + i), true).voq);
  EXPECT_TRUE(in.seal(slot));
  return slot;
}

TEST(LosslessAdmission, RoomCountsEveryCopysHeaderInThePoolOfItsVl) {
  const LeafParams p = lossless_params();  // 10 headers per lossless VL
  LeafIngress in(PortId(640), p);
  // At the source (level 0) copies to ports and to surrogates share the starting VL.
  EXPECT_EQ(in.room_for(frame(256, kLossless), HeaderDemand{6, 4}), RoomShortage::none);
  EXPECT_EQ(in.room_for(frame(256, kLossless), HeaderDemand{7, 4}), RoomShortage::headers);
  store_copies(in, frame(256, kLossless), 4, 0);
  EXPECT_EQ(in.room_for(frame(256, kLossless), HeaderDemand{4, 2}), RoomShortage::none);
  EXPECT_EQ(in.room_for(frame(256, kLossless), HeaderDemand{4, 3}), RoomShortage::headers);
  // At a level-1 surrogate the copies to deeper surrogates take the next VL's pool.
  EXPECT_EQ(in.room_for(frame(256, kLossless, 1), HeaderDemand{6, 8}), RoomShortage::none);
  EXPECT_EQ(in.room_for(frame(256, kLossless, 1), HeaderDemand{7, 1}), RoomShortage::headers);
  store_copies(in, frame(256, kLossless, 1, 2), 0, 8);
  EXPECT_EQ(in.headers(Vl(raw(unicast_vl(kLossless)) + 1)), 8u);
  EXPECT_EQ(in.room_for(frame(256, kLossless, 1), HeaderDemand{6, 2}), RoomShortage::none);
  EXPECT_EQ(in.room_for(frame(256, kLossless, 1), HeaderDemand{6, 3}), RoomShortage::headers);
  // Payload first: the frame's own VL pool (level 1 arrives on the starting VL).
  EXPECT_EQ(in.room_for(frame(100 * 256, kLossless, 1), HeaderDemand{1, 0}), RoomShortage::payload);
}

TEST(LosslessAdmission, ALosslessCopyWithoutItsHeaderIsABrokenInvariantNotADrop) {
  const LeafParams p = lossless_params();
  LeafIngress in(PortId(0), p);
  store_copies(in, frame(256, kLossless), 10, 0);
  const uint32_t slot = *in.store_payload(frame(256, kLossless, 0, 2), true);
  EXPECT_THROW(in.queue_copy(slot, PortId(20), LeafId(0)), std::logic_error);
}

TEST(LosslessAdmission, LosslessHeadersAreOutsideTheHeaderMemory) {
  LeafParams p = lossless_params();
  p.header_memory = 2;  // the lossy VLs' headers together
  LeafIngress in(PortId(0), p);
  store_copies(in, frame(256, kLossless), 8, 0);
  EXPECT_EQ(in.headers(unicast_vl(kLossless)), 8u);
  // The lossy VLs still have the whole header memory.
  EXPECT_TRUE(in.admit(frame(256, kLossy), PortId(1), LeafId(0)).voq);
  EXPECT_TRUE(in.admit(frame(256, kLossy), PortId(1), LeafId(0)).voq);
  const LeafIngress::Admission third = in.admit(frame(256, kLossy), PortId(1), LeafId(0));
  EXPECT_FALSE(third.voq);
  EXPECT_EQ(third.reason, DropReason::header_memory);
}

TEST(LosslessAdmission, HeldFramesStopTheCnaUntilTheLastHasGoneIn) {
  for (const bool thresholds : {true, false}) {
    SCOPED_TRACE(thresholds ? "PAUSE thresholds on" : "leaf.pause.enable off");
    LeafParams p = lossless_params();
    p.pause_enabled = thresholds;
    LeafIngress in(PortId(0), p);
    EXPECT_FALSE(in.holding(kLossless));
    in.hold(frame(256, kLossless, 0, 7));
    in.hold(frame(512, kLossless, 0, 8));
    EXPECT_TRUE(in.holding(kLossless));
    EXPECT_FALSE(in.holding(kLossy));
    EXPECT_EQ(in.copies_waiting(), 2u);
    const std::optional<PauseChange> stop = in.pause_change(kLossless);
    ASSERT_TRUE(stop);
    EXPECT_TRUE(stop->stop);
    EXPECT_FALSE(stop->headers);
    EXPECT_EQ(in.next_held(kLossless).frame, FrameId(7));  // in arrival order
    in.pop_held(kLossless);
    EXPECT_FALSE(in.pause_change(kLossless)) << "GO while a frame still waits";
    EXPECT_EQ(in.next_held(kLossless).frame, FrameId(8));
    in.pop_held(kLossless);
    const std::optional<PauseChange> go = in.pause_change(kLossless);
    ASSERT_TRUE(go);
    EXPECT_FALSE(go->stop);
  }
}

// Sends and acknowledges every copy waiting in the VOQ.
void forward_all(LeafIngress& in, uint32_t q) {
  const uint32_t n = static_cast<uint32_t>(in.voq(q).waiting.size());
  in.on_grant(q, n * in.head_units(in.voq(q)));
  for (uint32_t i = 0; i < n; ++i) in.start_copy(q);
  in.on_ack(q, n);
}

TEST(LosslessAdmission, AStopTheHeaderPoolCalledForSaysSoAndGoWaitsForBoth) {
  const LeafParams p = lossless_params();  // headers: STOP above 6, GO below 3
  LeafIngress in(PortId(0), p);
  store_copies(in, frame(256, kLossless), 6, 0);
  EXPECT_FALSE(in.pause_change(kLossless)) << "STOP at headers_hi, not above it";
  store_copies(in, frame(256, kLossless, 0, 2), 1, 0);
  const std::optional<PauseChange> stop = in.pause_change(kLossless);
  ASSERT_TRUE(stop);
  EXPECT_TRUE(stop->stop);
  EXPECT_TRUE(stop->headers);
  // Copies leave VOQ by VOQ: no GO while 3 or more headers are held.
  for (uint32_t q = 0; in.headers(unicast_vl(kLossless)) >= 3; ++q) {
    EXPECT_FALSE(in.pause_change(kLossless)) << "at " << in.headers(unicast_vl(kLossless)) << " headers";
    forward_all(in, q);
  }
  const std::optional<PauseChange> go = in.pause_change(kLossless);
  ASSERT_TRUE(go);
  EXPECT_FALSE(go->stop);
  // A STOP above Qhi alone is not the header pool's.
  LeafIngress bytes(PortId(0), p);
  store_copies(bytes, frame(61 * 256, kLossless), 1, 0);
  const std::optional<PauseChange> qhi = bytes.pause_change(kLossless);
  ASSERT_TRUE(qhi);
  EXPECT_TRUE(qhi->stop);
  EXPECT_FALSE(qhi->headers);
}

}  // namespace
}  // namespace fabric
