// The invariants every run checks (model/invariants/), each tripped by a
// deliberately broken unit: a sender that over-sends a link, a copy faster
// than its flight, a source port that sends on another copy's grant, a CNA
// that sends on a paused priority.
#include <gtest/gtest.h>

#include <optional>
#include <systemc>

#include "model/core/sim_time.h"
#include "model/invariants/delivery_bound.h"
#include "model/invariants/invariant_broken.h"
#include "model/invariants/line_rate_window.h"
#include "model/invariants/pause_obedience.h"
#include "model/leaf/leaf_ingress.h"
#include "model/link/link.h"
#include "model/protocol/payload_pool.h"
#include "tests/support/spec_params.h"

namespace fabric {
namespace {

using sc_core::SC_PS;
using sc_core::sc_time;

// Feeds a LineRateWindow as a Link does: messages and bytes counted, a
// window opened before its first message and closed after its last.
class WindowedLink {
 public:
  explicit WindowedLink(double gbps) : window(gbps) {}
  // The verdict when this message closed a window.
  std::optional<LineRateWindow::Verdict> send(Picos start, Picos end, uint64_t bytes) {
    if (LineRateWindow::opens(messages_ + 1)) window.open(start, bytes_);
    ++messages_;
    bytes_ += bytes;
    if (!LineRateWindow::closes(messages_)) return std::nullopt;
    return window.close(end, bytes_);
  }
  LineRateWindow window;

 private:
  uint64_t messages_ = 0;
  uint64_t bytes_ = 0;
};

TEST(LineRateWindow, BackToBackMessagesAtTheRateHold) {
  WindowedLink w(25);  // 320 ps a byte
  Picos t = 0;
  for (uint32_t i = 0; i + 1 < LineRateWindow::kMessages; ++i) {
    EXPECT_EQ(w.send(t, t + 256 * 320, 256), std::nullopt);
    t += 256 * 320;
  }
  EXPECT_EQ(w.send(t, t + 256 * 320, 256), LineRateWindow::Verdict::held);
  EXPECT_EQ(w.window.windows(), 1u);
}

TEST(LineRateWindow, EightMessagesInLessThanTheirTimeBreakIt) {
  WindowedLink w(25);
  Picos t = 0;
  // A sender whose serialization is 10 % short: 27.8 Gb/s on a 25 Gb/s link.
  for (uint32_t i = 0; i + 1 < LineRateWindow::kMessages; ++i) {
    w.send(t, t + 256 * 288, 256);
    t += 256 * 288;
  }
  EXPECT_EQ(w.send(t, t + 256 * 288, 256), LineRateWindow::Verdict::broken);
  EXPECT_NE(w.window.describe().find("27.778 Gb/s on a 25.000 Gb/s link"), std::string::npos) << w.window.describe();
}

TEST(LineRateWindow, TheLinksRoundingToWholePicosecondsIsNotABreak) {
  WindowedLink w(100 / 3.0);  // 240 ps a byte: 64 B take 15,360 ps, given as 15,359
  Picos t = 0;
  std::optional<LineRateWindow::Verdict> v;
  for (uint32_t i = 0; i < LineRateWindow::kMessages; ++i) {
    v = w.send(t, t + 15'359, 64);
    t += 15'359;
  }
  EXPECT_EQ(v, LineRateWindow::Verdict::held);
}

// A sender that starts a message while the link is still busy with the last.
class OverSender : public FabricSender, public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(OverSender);
  OverSender(sc_core::sc_module_name name, PayloadPool& pool) : sc_module(name), out("out"), pool_(pool) {
    out.bind(*this);
  }
  FabricInitiatorSocket out;
  void send_two_at_once() {
    for (int i = 0; i < 2; ++i) {
      Payload& m = pool_.acquire(MessageKind::packet, 256);
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_time delay = sc_core::SC_ZERO_TIME;
      out->nb_transport_fw(m, phase, delay);
    }
  }

 private:
  PayloadPool& pool_;
};

class Sink : public FabricReceiver, public sc_core::sc_module {
 public:
  explicit Sink(sc_core::sc_module_name name) : sc_module(name), in("in") { in.bind(*this); }
  tlm::tlm_sync_enum nb_transport_fw(Payload& m, tlm::tlm_phase&, sc_time&) override {
    m.release();
    return tlm::TLM_COMPLETED;
  }
  FabricTargetSocket in;
};

TEST(LinkInvariant, ASenderThatOverSendsALinkStopsTheRun) {
  PayloadPool pool;
  OverSender sender("sender", pool);
  Link link("link", {25, sc_time(200'000, SC_PS), 0, false, 0});
  Sink sink("sink");
  sender.out.bind(link.in);
  link.out.bind(sink.in);
  sc_core::sc_start(sc_time(1, SC_PS));
  forget_broken_invariant();
  try {
    sender.send_two_at_once();
    FAIL() << "the second message started while the link was busy";
  } catch (const InvariantBroken& e) {
    EXPECT_EQ(e.invariant(), invariant::kLineRate);
    EXPECT_EQ(e.entity(), "link");
    EXPECT_NE(std::string(e.what()).find("busy until"), std::string::npos) << e.what();
  }
  ASSERT_TRUE(first_broken_invariant());
  EXPECT_EQ(first_broken_invariant()->invariant(), invariant::kLineRate);
  EXPECT_EQ(link.invariants_checked(), 1u) << "the first message was checked and held";
  forget_broken_invariant();
}

// The bound by hand: 1522 B frames, 100 Gb/s CNA links of 2 m (10 ns),
// leaf-spine cables of 40 m (200 ns) or 400 m (2 us).
DeliveryBoundParams fabric_at(Picos fabric_flight, bool own_grant = true) {
  Geometry g;
  g.leaves = 2;
  return {100, 20, 10'000, fabric_flight, g, own_grant};
}

TEST(DeliveryBound, ALocalCopyIsTheFrameTwiceAndTheCnaCables) {
  const DeliveryBound b(fabric_at(200'000));
  // 1542 B at 100 Gb/s: 123.36 ns, at the source and at the destination.
  EXPECT_EQ(b.minimum(PortId(0), PortId(1), 1522, 0), 2 * 10'000 + 2 * 123'360);
  // E11's local 1522 B: 386.9 ns.
  EXPECT_LT(b.minimum(PortId(0), PortId(1), 1522, 0), 386'900);
}

TEST(DeliveryBound, ARemoteCopyOnItsOwnGrantWaitsForTheRequestAndGrantAcrossTheCables) {
  const DeliveryBound b40(fabric_at(200'000));
  // 10 + max(123.36, 4 x 200) + 2 x 200 + 123.36 + 10 ns
  EXPECT_EQ(b40.minimum(PortId(0), PortId(5), 1522, 0), 10'000 + 800'000 + 400'000 + 123'360 + 10'000);
  EXPECT_LT(b40.minimum(PortId(0), PortId(5), 1522, 0), 2'080'400) << "E11's remote 1522 B: 2080.4 ns";
  const DeliveryBound b400(fabric_at(2'000'000));
  // The 400 m case: request, grant and data each cross two 400 m spans: 12 us of flight.
  EXPECT_EQ(b400.minimum(PortId(0), PortId(5), 1522, 0), 10'000 + 8'000'000 + 4'000'000 + 123'360 + 10'000);
  EXPECT_GT(b400.minimum(PortId(0), PortId(5), 1522, 0), 9'930'000) << "the p99 of issue 50 breaks it";
}

TEST(DeliveryBound, WithoutOwnGrantsOrThroughSurrogatesOnlyTheDataPathCounts) {
  const DeliveryBound kept(fabric_at(2'000'000, false));
  EXPECT_EQ(kept.minimum(PortId(0), PortId(5), 1522, 0), 10'000 + 123'360 + 4'000'000 + 123'360 + 10'000);
  const DeliveryBound own(fabric_at(2'000'000));
  EXPECT_EQ(own.minimum(PortId(0), PortId(5), 1522, 2), kept.minimum(PortId(0), PortId(5), 1522, 0));
  EXPECT_NE(own.describe(PortId(0), PortId(5), 1522, 0).find("request and grant"), std::string::npos);
}

TEST(PauseObedience, FramesAlreadyOnTheirWayPassAndLaterOnesBreakIt) {
  PauseObedience pause(1'000'000);  // 1 us from STOP to the last frame that may still come
  EXPECT_TRUE(pause.allows(3, 5'000'000));
  pause.on_pause_sent(3, true, 2'000'000);
  EXPECT_TRUE(pause.allows(3, 3'000'000)) << "sent before the PAUSE arrived";
  EXPECT_FALSE(pause.allows(3, 3'000'001)) << "sent while paused";
  EXPECT_TRUE(pause.allows(2, 9'000'000)) << "another priority";
  pause.on_pause_sent(3, true, 2'500'000);  // a STOP again: the first one counts
  EXPECT_FALSE(pause.allows(3, 3'200'000));
  pause.on_pause_sent(3, false, 4'000'000);
  EXPECT_TRUE(pause.allows(3, 9'000'000)) << "after GO";
}

EthernetFrame frame_of_units(uint64_t id, uint32_t bytes) {
  EthernetFrame f;
  f.frame = FrameId(id);
  f.flow = FlowId(1);
  f.src = PortId(0);
  f.bytes = bytes;
  f.priority = 0;
  return f;
}

// A source port that sends a copy on credit owed back for a dropped one, as
// a port that forgot to pay what it owes would (`withdraw`).
TEST(SurplusCreditInvariant, ACopySentOnCreditOwedBackStopsTheRun) {
  LeafParams p = testing::spec_leaf_params();
  p.voq_drop = LeafParams::VoqDrop::head;
  p.voq_threshold_units = 12;
  LeafIngress in(PortId(0), p);
  for (uint64_t id = 1; id <= 2; ++id) in.admit(frame_of_units(id, 1522), PortId(4), LeafId(0));
  const uint32_t v = *in.find_voq(PortId(4), unicast_vl(0));
  in.on_grant(v, 6);
  in.take_head(v);
  in.on_shortfall(v, 6);  // owed back, but not paid (settle_owed not called)
  forget_broken_invariant();
  EXPECT_THROW(in.start_copy(v, 7'000'000), InvariantBroken);
  ASSERT_TRUE(first_broken_invariant());
  EXPECT_EQ(first_broken_invariant()->invariant(), invariant::kSurplusCredit);
  EXPECT_EQ(first_broken_invariant()->time(), 7'000'000);
  forget_broken_invariant();
}

// A source port that sends a copy before its own grant (`per_copy`), as a
// crossbar that did not ask head_covered would: the grant in hand is the
// next copy's.
TEST(OwnGrantInvariant, ACopySentWithoutItsOwnGrantStopsTheRun) {
  LeafParams p = testing::spec_leaf_params();
  p.dropped_credit = LeafParams::DroppedCredit::per_copy;
  LeafIngress in(PortId(0), p);
  in.admit(frame_of_units(1, 1522), PortId(4), LeafId(0));
  in.admit(frame_of_units(2, 1522), PortId(4), LeafId(0));
  const uint32_t v = *in.find_voq(PortId(4), unicast_vl(0));
  EXPECT_EQ(in.on_grant(v, 6, {1, 1}), 0u);  // copy 1's grant: copy 0 still waits for its own
  EXPECT_EQ(in.voq(v).credits, 6u);
  forget_broken_invariant();
  EXPECT_THROW(in.start_copy(v, 5'000'000), InvariantBroken);
  ASSERT_TRUE(first_broken_invariant());
  EXPECT_EQ(first_broken_invariant()->invariant(), invariant::kOwnGrant);
  EXPECT_NE(std::string(first_broken_invariant()->what()).find("without its own grant"), std::string::npos);
  forget_broken_invariant();
}

}  // namespace
}  // namespace fabric
