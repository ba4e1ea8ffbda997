// The sync CAM, each implementation (the C++ model, the RTL): suspension above Shi, resumption below Slow, on timeout
// and on eviction, and deadlock freedom over adversarial frame orders.
#include <gtest/gtest.h>

#include <vector>

#include "rtl/check/block_stimulus.h"
#include "tests/support/block_implementations.h"

namespace fabric {
namespace {

class SyncCamImplementations : public ::testing::TestWithParam<std::string> {};

SyncCam::Params params(uint32_t entries = 24, Cycle timeout = 1362) {
  SyncCam::Params p;
  p.entries = entries;
  p.shi = 18;
  p.slow = 12;
  p.timeout_cycles = timeout;
  return p;
}

void forward(SyncCam& cam, uint32_t voq, uint32_t packets, Cycle now) {
  cam.on_copy_forwarded(voq, packets, false, nullptr, 0, now);
}
void forward_last(SyncCam& cam, uint32_t voq, uint32_t packets, std::vector<uint32_t> before, Cycle now) {
  cam.on_copy_forwarded(voq, packets, true, before.data(), before.size(), now);
}

TEST_P(SyncCamImplementations, SuspendsAVoqMoreThanShiPacketsAhead) {
  const auto block = testing::make_sync_cam_for_test(GetParam(), params());
  SyncCam& cam = *block;
  for (int frame = 0; frame < 3; ++frame) forward(cam, 1, 6, frame);
  EXPECT_EQ(cam.ahead(1), 18u);
  EXPECT_FALSE(cam.suspended(1)) << "18 does not exceed Shi = 18";
  forward(cam, 1, 6, 3);
  EXPECT_TRUE(cam.suspended(1));
  const auto changes = cam.take_changes();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_TRUE(changes[0].suspended);
  EXPECT_EQ(changes[0].why, SyncCam::Why::ahead);
}

TEST_P(SyncCamImplementations, ResumesOnlyBelowSlowWhenTheLastCopiesLeave) {
  const auto block = testing::make_sync_cam_for_test(GetParam(), params());
  SyncCam& cam = *block;
  for (int frame = 0; frame < 4; ++frame) forward(cam, 1, 6, frame);  // 24 ahead: suspended
  cam.take_changes();
  forward_last(cam, 2, 6, {1}, 10);  // 18: not below Slow
  EXPECT_TRUE(cam.suspended(1));
  forward_last(cam, 2, 6, {1}, 11);  // 12: not below Slow
  EXPECT_TRUE(cam.suspended(1));
  forward_last(cam, 2, 6, {1}, 12);  // 6 < 12
  EXPECT_FALSE(cam.suspended(1));
  const auto changes = cam.take_changes();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].why, SyncCam::Why::caught_up);
  EXPECT_EQ(cam.ahead(1), 6u);
  forward_last(cam, 2, 6, {1}, 13);
  EXPECT_EQ(cam.used_entries(), 0u) << "released when its count reaches zero";
}

TEST_P(SyncCamImplementations, LastCopyOnlyCountsDownVoqsThatSentTheFrame) {
  const auto block = testing::make_sync_cam_for_test(GetParam(), params());
  SyncCam& cam = *block;
  forward(cam, 1, 6, 0);
  forward(cam, 3, 6, 0);
  forward_last(cam, 2, 6, {1}, 1);
  EXPECT_EQ(cam.ahead(1), 0u);
  EXPECT_EQ(cam.ahead(3), 6u);
}

TEST_P(SyncCamImplementations, ResumesAfterTheTimeout) {
  const auto block = testing::make_sync_cam_for_test(GetParam(), params(24, 100));
  SyncCam& cam = *block;
  for (int frame = 0; frame < 4; ++frame) forward(cam, 5, 6, 10);
  ASSERT_TRUE(cam.suspended(5));
  EXPECT_EQ(cam.next_timeout(), 110u);
  cam.tick(109);
  EXPECT_TRUE(cam.suspended(5));
  cam.tick(110);
  EXPECT_FALSE(cam.suspended(5));
  const auto changes = cam.take_changes();
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[1].why, SyncCam::Why::timeout);
  EXPECT_EQ(changes[1].at, 110u);
}

// E9 at 33 Gb/s: a VOQ whose frames' last copies wait behind a branch that
// never catches up sends one frame per timeout; nothing but the timeout (or
// an eviction) lets it go.
TEST_P(SyncCamImplementations, BehindABranchThatNeverCatchesUpAVoqSendsOneFramePerTimeout) {
  const auto block = testing::make_sync_cam_for_test(GetParam(), params(24, 100));
  SyncCam& cam = *block;
  Cycle now = 0;
  int frames = 0;
  for (; now < 1000; ++now) {
    cam.tick(now);
    if (!cam.suspended(1)) {
      forward(cam, 1, 6, now);
      ++frames;
    }
  }
  // 4 frames to pass Shi, then one each time the timeout (100 cycles) runs out.
  EXPECT_EQ(frames, 4 + 9);
  EXPECT_TRUE(cam.suspended(1));
}

TEST_P(SyncCamImplementations, AFullCamEvictsTheLeastRecentlyUsedEntryAndReleasesItsVoq) {
  const auto block = testing::make_sync_cam_for_test(GetParam(), params(2));
  SyncCam& cam = *block;
  for (int frame = 0; frame < 4; ++frame) forward(cam, 1, 6, frame);  // suspended, used at cycle 3
  forward(cam, 2, 6, 5);
  ASSERT_TRUE(cam.suspended(1));
  cam.take_changes();
  forward(cam, 3, 6, 6);  // no free entry: VOQ 1 (least recently used) loses its entry
  EXPECT_FALSE(cam.suspended(1));
  EXPECT_EQ(cam.ahead(1), 0u);
  EXPECT_EQ(cam.evictions(), 1u);
  const auto changes = cam.take_changes();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].why, SyncCam::Why::evicted);
}

// The FIFO argument, tested: a port whose VOQs hold multicast frames in
// arrival order, a scheduler that starts the head copy of a random VOQ that
// is not suspended, frames arriving at random with random fanout sets, and
// no timeout (rtl/check/block_stimulus.h). Whenever copies are waiting, some
// VOQ that holds one must be free to send: otherwise the port would deadlock.
TEST_P(SyncCamImplementations, NeverSuspendsEveryVoqWithWorkUnderRandomAdversarialOrders) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    const uint32_t entries = seed % 4 == 0 ? 3 : 24;  // small CAMs exercise eviction
    stimulus::SyncCamStimulus adversary(seed, entries, false);
    const auto block = testing::make_sync_cam_for_test(GetParam(), adversary.params());
    const stimulus::SyncCamStimulus::Result r = adversary.run(*block, 3000);
    EXPECT_FALSE(r.deadlock) << "seed " << seed << ", cycle " << *r.deadlock << ": every VOQ suspended";
    EXPECT_GT(r.copies_started, 1000u);
  }
}

INSTANTIATE_TEST_SUITE_P(Each, SyncCamImplementations, ::testing::ValuesIn(testing::block_implementations()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace fabric
