// The PAUSE headroom of a lossless user port: the frames that can still be
// admitted after a STOP, and the header thresholds and payload reserve
// derived from them (docs/model.md, "PAUSE and QCN").
#include <gtest/gtest.h>

#include "model/leaf/leaf_params.h"
#include "model/leaf/pause_headroom.h"
#include "tests/support/spec_params.h"

namespace fabric {
namespace {

// The default fabric: 100 Gb/s, 2 m at 5 ns/m, 3 cycles of 2.2026 ns lookup,
// 64 B PAUSE, 64 B smallest frame, 20 B of preamble and gap.
PauseRoundTrip default_round_trip() { return PauseRoundTrip{}; }

TEST(PauseHeadroom, TheDefaultFabricAdmitsSixFramesAfterAStop) {
  const PauseRoundTrip rt = default_round_trip();
  // 6.608 lookup + 0.64 preamble + 10 + 6.72 PAUSE + 10 = 33.968 ns, frames every 6.72 ns.
  EXPECT_NEAR(pause_window_ps(rt), 33'968, 1);
  EXPECT_NEAR(wire_ps(84, 100), 6'720, 1e-6);
  EXPECT_EQ(frames_after_stop(rt), 6u);
}

TEST(PauseHeadroom, DefaultHeaderThresholdsAreTheShippedFabricsDerivedOnes) {
  // Multicast: 7 frames (the one crossing STOP and 6 more) of 8 copies: 56 headers.
  EXPECT_EQ(header_headroom(6, 8), 56u);
  const std::optional<HeaderThresholds> t = header_thresholds(291, 6, 8);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->stop_above, 235u);
  EXPECT_EQ(t->go_below, 179u);
  const LeafParams defaults = testing::spec_leaf_params();
  EXPECT_EQ(defaults.pause_headers_hi, t->stop_above);
  EXPECT_EQ(defaults.pause_headers_lo, t->go_below);
  // Unicast only: one header a frame.
  const std::optional<HeaderThresholds> unicast = header_thresholds(291, 6, 1);
  ASSERT_TRUE(unicast);
  EXPECT_EQ(unicast->stop_above, 284u);
  EXPECT_EQ(unicast->go_below, 277u);
}

TEST(PauseHeadroom, APoolNoLargerThanTheHeadroomCannotBeProtected) {
  EXPECT_FALSE(header_thresholds(56, 6, 8));
  const std::optional<HeaderThresholds> t = header_thresholds(57, 6, 8);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->stop_above, 1u);
  EXPECT_EQ(t->go_below, 1u);  // GO once the pool is empty
  EXPECT_EQ(header_go_below(100, 56), 44u);
  EXPECT_EQ(header_go_below(56, 56), 1u);
}

TEST(PauseHeadroom, EveryPartOfTheRoundTripLengthensTheWindow) {
  const PauseRoundTrip base = default_round_trip();
  const double window = pause_window_ps(base);
  PauseRoundTrip longer_cable = base;
  longer_cable.propagation += 100'000;  // 20 m more
  EXPECT_NEAR(pause_window_ps(longer_cable) - window, 200'000, 1);
  EXPECT_EQ(frames_after_stop(longer_cable), 35u);  // 233.968 / 6.72 = 34.8
  PauseRoundTrip waiting = base;
  waiting.wait = 738'880;  // behind a 9216 B frame
  EXPECT_EQ(frames_after_stop(waiting), 116u);
  PauseRoundTrip store_and_forward = base;
  store_and_forward.header_after_bytes = 84;  // the leaf sees a frame only when it is all in
  EXPECT_NEAR(pause_window_ps(store_and_forward) - window, wire_ps(84 - 8, 100), 1e-6);
}

TEST(PauseHeadroom, SlowerLinksAdmitFewerFramesAfterAStop) {
  PauseRoundTrip ten_g = default_round_trip();
  ten_g.link_gbps = 10;
  // 6.608 + 6.4 + 20 + 67.2 = 100.208 ns, frames every 67.2 ns.
  EXPECT_EQ(frames_after_stop(ten_g), 2u);
  EXPECT_EQ(header_headroom(2, 1), 3u);
}

TEST(PauseHeadroom, ThePayloadReserveCountsSmallFramesAndTwoLargestOnes) {
  // Behind a jumbo frame on the leaf's wire: 116 frames, and two may be jumbo.
  EXPECT_EQ(units_after_stop(116, 36), 116u + 72u);
  // The default pool (908 units) keeps Qhi (640) + a crossing frame (36) + 188 = 864.
  EXPECT_LE(640u + 36u + units_after_stop(116, 36), 908u);
}

}  // namespace
}  // namespace fabric
