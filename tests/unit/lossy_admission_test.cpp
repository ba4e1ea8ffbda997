// Lossy admission (mechanism 4): RED, fixed and random header order, VOQ
// tail drop, drop-from-head with its VOQ-sync count-down and the return of
// surplus credit.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "model/leaf/copy_forwarded.h"
#include "model/leaf/header_admission.h"
#include "model/leaf/leaf_ingress.h"
#include "model/multicast/voq_sync_cam.h"
#include "tests/support/spec_params.h"

namespace fabric {
namespace {

HeaderAdmission red(uint32_t low, uint32_t high, double p) {
  HeaderAdmission::Params params;
  params.policy = HeaderAdmission::Policy::red;
  params.red_low = low;
  params.red_high = high;
  params.red_p = p;
  return HeaderAdmission(params);
}

TEST(HeaderAdmission, RedAcceptsAllBelowHlowDropsAllAboveHhiAndAboutPBetween) {
  const HeaderAdmission policy = red(70, 100, 0.5);
  std::mt19937_64 rng(7);
  for (uint32_t used = 0; used < 70; ++used)
    for (int i = 0; i < 200; ++i) ASSERT_TRUE(policy.accept(used, rng)) << "below Hlow, occupancy " << used;
  for (uint32_t used = 101; used < 130; ++used)
    for (int i = 0; i < 200; ++i) ASSERT_FALSE(policy.accept(used, rng)) << "above Hhi, occupancy " << used;
  // Between Hlow and Hhi (both included): a drop with probability p. Over
  // 200,000 trials the standard deviation of the drop share is 0.0011;
  // 0.01 is nine of them.
  for (const double p : {0.1, 0.5, 0.9}) {
    const HeaderAdmission between = red(70, 100, p);
    int dropped = 0;
    const int trials = 200000;
    for (int i = 0; i < trials; ++i) dropped += !between.accept(70 + i % 31, rng);
    EXPECT_NEAR(static_cast<double>(dropped) / trials, p, 0.01) << "p = " << p;
  }
  EXPECT_TRUE(red(70, 100, 0.0).accept(100, rng));
  EXPECT_FALSE(red(70, 100, 1.0).accept(70, rng));
}

LeafParams lossy_params(HeaderAdmission::Policy policy, uint32_t hth) {
  LeafParams p = testing::spec_leaf_params();
  p.header_pool_lossy = 500;
  p.header_admission.policy = policy;
  p.header_admission.hth = hth;
  p.voq_drop = LeafParams::VoqDrop::off;
  return p;
}

EthernetFrame frame(uint64_t id, uint32_t bytes = 1522) {
  EthernetFrame f;
  f.frame = FrameId(id);
  f.flow = FlowId(1);
  f.bytes = bytes;
  f.priority = 0;  // lossy
  return f;
}

// Queues one 4-copy multicast frame to ports 1..4 in the order the policy
// gives; returns which targets got a header.
std::array<bool, 4> admit_four(LeafIngress& in, uint64_t id) {
  const std::optional<uint32_t> slot = in.store_payload(frame(id), true);
  EXPECT_TRUE(slot.has_value());
  std::array<bool, 4> admitted{};
  const auto order = in.copy_order(4);
  for (size_t i = 0; i < 4; ++i) {
    const LeafIngress::CopyAdmission a = in.queue_copy(*slot, PortId(1 + order[i]), LeafId(0));
    admitted[order[i]] = a.voq.has_value();
    if (!a.voq) {
      EXPECT_EQ(a.reason, DropReason::header_pool);
    }
  }
  in.seal(*slot);
  return admitted;
}

TEST(HeaderAdmission, FixedOrderAdmitsTheEarlierHeadersFirstAtTheBoundary) {
  const LeafParams p = lossy_params(HeaderAdmission::Policy::fixed_order, 10);
  LeafIngress in(PortId(0), p);
  EXPECT_EQ(admit_four(in, 1), (std::array<bool, 4>{true, true, true, true}));
  EXPECT_EQ(admit_four(in, 2), (std::array<bool, 4>{true, true, true, true}));
  EXPECT_EQ(in.headers(unicast_vl(0)), 8u);
  // Two headers left below Hth = 10: d1 and d2 get them, d3 and d4 drop.
  EXPECT_EQ(admit_four(in, 3), (std::array<bool, 4>{true, true, false, false}));
  EXPECT_EQ(in.headers(unicast_vl(0)), 10u);
}

TEST(HeaderAdmission, RandomOrderGivesEveryCopyTheSameChanceAtTheBoundary) {
  const LeafParams p = lossy_params(HeaderAdmission::Policy::random_order, 2);
  std::array<int, 4> admitted{};
  const int frames = 4000;
  for (int i = 0; i < frames; ++i) {
    LeafIngress in(PortId(0), p, 1000 + i);  // an empty pool each time: 2 of 4 copies get a header
    const std::array<bool, 4> a = admit_four(in, 1);
    for (int d = 0; d < 4; ++d) admitted[d] += a[d];
  }
  // Each copy is admitted with probability 1/2: standard deviation 32 of 4000.
  for (int d = 0; d < 4; ++d) EXPECT_NEAR(admitted[d], frames / 2, 200) << "d" << d + 1;
}

TEST(HeaderAdmission, AFullHeaderMemoryDropsTheHeaderWhateverItsPool) {
  LeafParams p = lossy_params(HeaderAdmission::Policy::red, 500);
  p.header_memory = 6;  // all VLs together
  LeafIngress in(PortId(0), p);
  EXPECT_EQ(admit_four(in, 1), (std::array<bool, 4>{true, true, true, true}));
  EthernetFrame at_surrogate = frame(2);
  at_surrogate.levels = 1;  // a copy to a deeper surrogate goes on the next VL
  const uint32_t slot = *in.store_payload(at_surrogate, true);
  EXPECT_TRUE(in.queue_copy(slot, PortId(1), LeafId(0)).voq);
  const LeafIngress::CopyAdmission deeper = in.queue_copy(slot, PortId(641), LeafId(1), true);
  ASSERT_TRUE(deeper.voq);
  EXPECT_NE(in.voq(*deeper.voq).vl, unicast_vl(0)) << "another VL, the same memory";
  const LeafIngress::CopyAdmission third = in.queue_copy(slot, PortId(3), LeafId(0));
  EXPECT_FALSE(third.voq);
  EXPECT_EQ(third.reason, DropReason::header_memory);
  in.seal(slot);
}

TEST(VoqDrop, TailDropRejectsTheArrivingHeaderAtVth) {
  LeafParams p = lossy_params(HeaderAdmission::Policy::red, 500);
  p.voq_drop = LeafParams::VoqDrop::tail;
  p.voq_threshold_units = 12;  // two 1522 B frames
  LeafIngress in(PortId(0), p);
  EXPECT_TRUE(in.admit(frame(1), PortId(3), LeafId(0)).voq);
  EXPECT_TRUE(in.admit(frame(2), PortId(3), LeafId(0)).voq);
  const LeafIngress::Admission third = in.admit(frame(3), PortId(3), LeafId(0));
  EXPECT_FALSE(third.voq);
  EXPECT_EQ(third.reason, DropReason::voq_tail);
  EXPECT_EQ(in.lossy_units(), 12u) << "the rejected frame's payload is freed";
}

TEST(VoqDrop, DropFromHeadRemovesTheHeadCopyAndCountsDownTheVoqsThatSentTheFrame) {
  LeafParams p = lossy_params(HeaderAdmission::Policy::red, 500);
  p.voq_drop = LeafParams::VoqDrop::head;
  p.voq_threshold_units = 12;
  p.dropped_credit = LeafParams::DroppedCredit::keep;  // the dropped copy's units owed back
  LeafIngress in(PortId(0), p);
  VoqSyncCam sync(VoqSyncCam::Params{});
  // Frame 1 goes to ports 1 (VOQ a) and 2 (VOQ b); VOQ a forwards its copy.
  const uint32_t f1 = *in.store_payload(frame(1), true);
  const uint32_t a = *in.queue_copy(f1, PortId(1), LeafId(0)).voq;
  const uint32_t b = *in.queue_copy(f1, PortId(2), LeafId(0)).voq;
  in.seal(f1);
  in.on_grant(a, 6);
  in.start_copy(a);
  count_copy_forwarded(&sync, in.progress(f1), in.frame(f1), a, 10);
  EXPECT_EQ(sync.ahead(a), 6u);
  // One more frame to VOQ b alone fills it to Vth; the next drops b's head (frame 1's copy).
  const uint32_t f2 = *in.store_payload(frame(2), true);
  EXPECT_FALSE(in.queue_copy(f2, PortId(2), LeafId(0)).drop_head_of);
  in.seal(f2);
  EXPECT_EQ(in.voq(b).waiting_units, 12u);
  const uint32_t f3 = *in.store_payload(frame(3), true);
  const LeafIngress::CopyAdmission arriving = in.queue_copy(f3, PortId(2), LeafId(0));
  in.seal(f3);
  ASSERT_TRUE(arriving.voq);
  ASSERT_EQ(arriving.drop_head_of, b);
  const uint32_t dropped = in.take_head(b);
  EXPECT_EQ(dropped, f1) << "the head is the oldest copy";
  EXPECT_EQ(in.voq(b).waiting.size(), 2u);
  EXPECT_EQ(in.voq(b).waiting_units, 12u);
  EXPECT_EQ(in.voq(b).owed_units, 6u);
  // Counted as forwarded: frame 1's last copy, so VOQ a is no longer ahead.
  count_copy_forwarded(&sync, in.progress(f1), in.frame(f1), b, 11);
  EXPECT_EQ(sync.ahead(a), 0u);
  EXPECT_EQ(sync.ahead(b), 0u);
  const uint32_t units_before = in.lossy_units();
  in.release_copy(b, dropped);
  EXPECT_EQ(in.lossy_units(), units_before) << "frame 1's copy to a is still in flight";
  in.on_ack(a, 1);
  EXPECT_EQ(in.lossy_units(), units_before - 6) << "payload freed after the last copy";
}

// Drop from head at Vth = two 1522 B frames, with the given fate of a
// dropped copy's credit.
LeafParams drop_from_head_params(LeafParams::DroppedCredit credit) {
  LeafParams p = lossy_params(HeaderAdmission::Policy::red, 500);
  p.voq_drop = LeafParams::VoqDrop::head;
  p.voq_threshold_units = 12;
  p.dropped_credit = credit;
  return p;
}

// Frames 1-3 queued to port 4; their VOQ.
uint32_t three_frames_to_port_4(LeafIngress& in) {
  for (uint64_t id = 1; id <= 3; ++id) in.admit(frame(id), PortId(4), LeafId(0));
  return *in.find_voq(PortId(4), unicast_vl(0));
}

// `withdraw` (the default): a grant is credit in units for the VOQ, which
// serves its head; a drop withdraws as many units of its requests at the
// arbiter, and what the arbiter had granted already comes back as owed,
// returned at once out of the credit: the VOQ never holds credit beyond
// what its copies asked for.
TEST(VoqDrop, WithdrawnCreditNeverLeavesTheVoqAhead) {
  const LeafParams p = drop_from_head_params(LeafParams::DroppedCredit::withdraw);
  LeafIngress in(PortId(0), p);
  const uint32_t v = three_frames_to_port_4(in);
  in.on_grant(v, 6);  // frame 1's grant, in hand
  in.take_head(v);    // frame 1 dropped: the caller withdraws 6 units of the VOQ's requests
  EXPECT_EQ(in.voq(v).owed_units, 0u) << "nothing owed until the arbiter says it had granted them";
  EXPECT_TRUE(in.head_covered(in.voq(v))) << "the credit in hand serves frame 2";
  in.on_shortfall(v, 6);  // the arbiter had granted them all (frames 2 and 3's requests too)
  EXPECT_EQ(in.settle_owed(v), 6u) << "returned at once, whatever the waiting copies need";
  EXPECT_FALSE(in.head_covered(in.voq(v)));
  in.on_grant(v, 6);
  EXPECT_EQ(in.settle_owed(v), 0u);
  in.start_copy(v);
  EXPECT_EQ(in.copies_on_surplus_credit(), 0u);
}

// `per_copy`: each copy is sent only on the grant of its own request. A
// grant names its copies by request number; units granted for copies
// already dropped (their withdrawal came too late) go back.
TEST(VoqDrop, PerCopyEachCopyWaitsForItsOwnGrant) {
  const LeafParams p = drop_from_head_params(LeafParams::DroppedCredit::per_copy);
  LeafIngress in(PortId(0), p);
  const uint32_t v = three_frames_to_port_4(in);  // requests 0, 1, 2
  EXPECT_EQ(LeafIngress::tail_request(in.voq(v)), 2u);
  EXPECT_EQ(in.on_grant(v, 6, {0, 0}), 0u);  // frame 1's grant
  EXPECT_TRUE(in.head_granted(in.voq(v)));
  in.take_head(v);  // frame 1 dropped with its grant in hand: the caller returns it
  EXPECT_EQ(in.voq(v).credits, 0u);
  EXPECT_FALSE(in.head_covered(in.voq(v))) << "frame 2 is not sent on frame 1's grant";
  in.take_head(v);  // frame 2 dropped before its grant: the caller withdraws request 1
  EXPECT_EQ(in.on_grant(v, 12, {1, 2}), 6u) << "request 1 was granted before its withdrawal arrived: 6 go back";
  ASSERT_TRUE(in.head_covered(in.voq(v)));
  EXPECT_EQ(in.voq(v).head_request, 2u);
  in.start_copy(v, 1'000);
  EXPECT_EQ(in.copies_on_surplus_credit(), 0u);
}

// `keep`, the model before issue 50 as a what-if: a grant is for units, and
// serves the VOQ's head whichever copy that now is; only credit beyond what
// the waiting copies need goes back.
TEST(VoqDrop, KeptGrantsReturnOnlyCreditBeyondTheWaitingCopies) {
  const LeafParams p = drop_from_head_params(LeafParams::DroppedCredit::keep);
  LeafIngress in(PortId(0), p);
  const uint32_t v = three_frames_to_port_4(in);
  in.take_head(v);  // 6 units owed, 12 waiting
  in.on_grant(v, 6);
  EXPECT_EQ(in.settle_owed(v), 0u) << "the grant serves the new head";
  EXPECT_TRUE(in.head_covered(in.voq(v)));
  in.on_grant(v, 12);
  EXPECT_EQ(in.settle_owed(v), 6u) << "18 units of credit for 12 waiting: 6 spare";
  EXPECT_EQ(in.voq(v).owed_units, 0u);
  EXPECT_EQ(in.voq(v).credits, 12u);
}

TEST(VoqDrop, KeptGrantsCountTheCopiesSentOnSurplusCredit) {
  const LeafParams p = drop_from_head_params(LeafParams::DroppedCredit::keep);
  LeafIngress in(PortId(0), p);
  const uint32_t v = three_frames_to_port_4(in);
  in.on_grant(v, 6);
  in.take_head(v);
  EXPECT_EQ(in.settle_owed(v), 0u);
  in.start_copy(v);  // frame 2 on frame 1's grant
  EXPECT_EQ(in.copies_on_surplus_credit(), 1u);
  in.on_grant(v, 6);  // frame 2's own grant: carries frame 3, which is then ahead of its own too
  EXPECT_EQ(in.settle_owed(v), 0u);
  in.start_copy(v);
  EXPECT_EQ(in.copies_on_surplus_credit(), 2u);
}

}  // namespace
}  // namespace fabric
