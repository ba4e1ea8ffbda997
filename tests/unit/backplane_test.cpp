// The backplane's switch (E12) as plain C++: the shared memory's admission
// (a frame that does not fit is discarded whole) and per-output FIFO order;
// the 802.3x controller's hysteresis and timers (XOFF at High, XON at Low,
// XOFF again while still above High when it runs out); a paused MAC
// finishes the frame on the wire; an end station's NIC and MAC buffers
// block the application while full and pass frames on in order.
#include <gtest/gtest.h>

#include "model/backplane/shared_memory_switch.h"
#include "model/backplane/transmit_stages.h"
#include "model/backplane/xoff_controller.h"

namespace fabric {
namespace {

TEST(SharedMemorySwitch, AdmitsWholeFramesWhileTheyFitAndDiscardsTheRestWhole) {
  SharedMemorySwitch sw(16, 4000);
  EXPECT_TRUE(sw.admit(3, {1, 1518, 0}));
  EXPECT_TRUE(sw.admit(3, {2, 1518, 1}));
  EXPECT_EQ(sw.occupancy(), 3036u);
  EXPECT_FALSE(sw.admit(5, {3, 1518, 2})) << "964 B free: no room for 1518";
  EXPECT_EQ(sw.discards(), 1u);
  EXPECT_TRUE(sw.admit(5, {4, 964, 2})) << "a frame that fits exactly";
  EXPECT_EQ(sw.occupancy(), 4000u);
  EXPECT_EQ(sw.pop(3).handle, 1u);
  EXPECT_EQ(sw.occupancy(), 2482u) << "freed as it leaves";
  EXPECT_EQ(sw.peak(), 4000u);
}

TEST(SharedMemorySwitch, EachOutputIsAFifoOfItsOwn) {
  SharedMemorySwitch sw(4, 1 << 20);
  for (uint64_t h = 0; h < 30; ++h) ASSERT_TRUE(sw.admit(static_cast<int>(h % 2), {h, 64, 0}));
  for (uint64_t expect = 0; expect < 30; expect += 2) EXPECT_EQ(sw.pop(0).handle, expect);
  for (uint64_t expect = 1; expect < 30; expect += 2) EXPECT_EQ(sw.pop(1).handle, expect);
  EXPECT_TRUE(sw.empty(0));
  EXPECT_TRUE(sw.empty(2));
  EXPECT_EQ(sw.occupancy(), 0u);
}

constexpr Picos kXoffLasts = 3'355'392'000;  // 0xFFFF quanta of 512 bit times at 10 Gb/s, in ps

XoffController controller() { return XoffController({16384, 8192, kXoffLasts}); }

TEST(XoffController, XoffAtHighXonAtLowAndNothingBetween) {
  XoffController c = controller();
  using A = XoffController::Action;
  EXPECT_EQ(c.on_occupancy(16383, 10), A::none);
  EXPECT_EQ(c.on_occupancy(16384, 20), A::xoff);
  EXPECT_EQ(c.on_occupancy(20000, 30), A::none) << "sent once, not per frame";
  EXPECT_EQ(c.on_occupancy(9000, 40), A::none) << "between Low and High: hysteresis";
  EXPECT_EQ(c.on_occupancy(16500, 50), A::none);
  EXPECT_EQ(c.on_occupancy(8192, 60), A::xon);
  EXPECT_EQ(c.on_occupancy(8000, 70), A::none);
  EXPECT_EQ(c.on_occupancy(16384, 80), A::xoff);
  EXPECT_EQ(c.xoffs(), 2u);
  EXPECT_EQ(c.xons(), 1u);
}

TEST(XoffController, XoffAgainWhenItRunsOutAboveHighAndLapsesBelow) {
  XoffController c = controller();
  using A = XoffController::Action;
  c.on_occupancy(20000, 1000);
  EXPECT_EQ(c.xoff_runs_out(), 1000 + kXoffLasts);
  EXPECT_EQ(c.on_xoff_running_out(20000, 1000 + kXoffLasts - 1), A::none) << "not yet";
  EXPECT_EQ(c.on_xoff_running_out(17000, 1000 + kXoffLasts), A::xoff) << "still above High: again";
  EXPECT_EQ(c.xoff_runs_out(), 1000 + 2 * kXoffLasts);
  EXPECT_EQ(c.on_xoff_running_out(12000, 1000 + 2 * kXoffLasts), A::none) << "below High: the partners resume";
  EXPECT_FALSE(c.holding());
  EXPECT_EQ(c.on_occupancy(16384, 1000 + 3 * kXoffLasts), A::xoff) << "the next crossing sends XOFF anew";
  EXPECT_THROW(XoffController({100, 200, 1}), std::invalid_argument) << "Low above High";
}

TEST(MacPause, APausedMacFinishesTheFrameOnTheWireAndWaitsForThePause) {
  MacPause mac(10.0);
  EXPECT_EQ(mac.quantum_ps(), 51200) << "512 bit times at 10 Gb/s";
  // A 1518 B frame (1538 B with preamble and gap) goes on the wire at 0 and
  // ends at 1,230,400 ps; a PAUSE of 10 quanta arrives in the middle of it.
  const Picos frame_ends = 1'230'400;
  mac.on_pause(10, 500'000);
  EXPECT_TRUE(mac.paused(600'000));
  EXPECT_EQ(mac.earliest_start(frame_ends), frame_ends) << "the pause ran out during the frame, which finished";
  mac.on_pause(0xFFFF, 1'000'000);
  EXPECT_EQ(mac.earliest_start(frame_ends), 1'000'000 + 0xFFFF * Picos{51200}) << "the next frame waits";
  mac.on_pause(0, 2'000'000);
  EXPECT_FALSE(mac.paused(2'000'000)) << "XON: at once";
  EXPECT_EQ(mac.earliest_start(2'100'000), 2'100'000) << "the next frame goes when the wire is free";
}

TEST(TransmitStages, TheApplicationBlocksWhileTheNicBufferIsFullAndFramesMoveOnInOrder) {
  TransmitStages stages(2048, 2048);
  const auto frame = [](uint64_t id, uint32_t bytes) { return StationFrame{FrameId(id), FlowId(0), bytes, 1, 0}; };
  stages.write(frame(1, 1518));  // straight on to the MAC buffer
  EXPECT_EQ(stages.mac_used(), 1518u);
  EXPECT_EQ(stages.nic_used(), 0u);
  stages.write(frame(2, 1518));  // the MAC buffer has no room: it waits in the NIC buffer
  EXPECT_EQ(stages.nic_used(), 1518u);
  EXPECT_FALSE(stages.nic_has_room(1518));  // the application blocks
  EXPECT_TRUE(stages.nic_has_room(500));
  stages.write(frame(3, 500));
  EXPECT_FALSE(stages.nic_has_room(64));
  EXPECT_EQ(stages.held(), 3u);

  EXPECT_EQ(raw(stages.mac_head().id), 1u);
  stages.sent();  // frame 1 left the wire: frame 2 and 3 move on, in order
  EXPECT_EQ(raw(stages.mac_head().id), 2u);
  EXPECT_EQ(stages.mac_used(), 2018u);
  EXPECT_EQ(stages.nic_used(), 0u);
  EXPECT_TRUE(stages.nic_has_room(2048));
  std::vector<uint64_t> order;
  stages.for_each_held([&](const StationFrame& f) { order.push_back(raw(f.id)); });
  EXPECT_EQ(order, (std::vector<uint64_t>{2, 3}));
  EXPECT_THROW(stages.write(frame(4, 4096)), std::logic_error);  // the caller checks nic_has_room
}

}  // namespace
}  // namespace fabric
