// Lockstep of the C++ model and RTL blocks (built with Verilator only): a
// block with one wrong comparison is caught at the first divergent cycle,
// and a small CAM whose writes hold cmd_ready low for cycles (the contract's
// stall path) matches the model call for call.
#include <gtest/gtest.h>

#ifdef FABRICSIM_HAVE_RTL
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "Vbroken_sync_cam.h"
#include "Vstall_sync_cam.h"
#include "model/multicast/lockstep_sync_cam.h"
#include "model/multicast/rtl_blocks.h"
#include "model/multicast/voq_sync_cam.h"
#include "rtl/check/block_check.h"
#include "rtl/cosim/rtl_sync_cam.h"

namespace fabric {
namespace {

TEST(RtlLockstep, ABrokenComparisonIsCaughtAtTheFirstDivergentCycle) {
  SyncCam::Params p;  // Shi = 18: the broken block suspends at 18 already
  LockstepSyncCam cam(std::make_unique<VoqSyncCam>(p), std::make_unique<rtl::RtlSyncCam<Vbroken_sync_cam>>(p, "broken"),
                      LockstepCheck("test port sync CAM", "model", "rtl"));
  cam.on_copy_forwarded(1, 6, false, nullptr, 0, 100);
  cam.on_copy_forwarded(1, 6, false, nullptr, 0, 101);
  try {
    cam.on_copy_forwarded(1, 6, false, nullptr, 0, 102);  // 18 ahead: not above Shi
    FAIL() << "the broken block was not caught";
  } catch (const LockstepMismatch& e) {
    const std::string why = e.what();
    EXPECT_NE(why.find("cycle 102"), std::string::npos) << why;
    EXPECT_NE(why.find("on_copy_forwarded(voq 1, packets 6"), std::string::npos) << why;
    EXPECT_NE(why.find("changes differs: model [], rtl [{voq 1 suspended (ahead) at 102}]"), std::string::npos) << why;
  }
}

TEST(RtlLockstep, ACamWhoseWritesStallMatchesTheModelOnRandomTraffic) {
  SyncCam::Params p;
  p.entries = 4;
  p.shi = 10;
  p.slow = 4;
  p.timeout_cycles = 50;
  auto rtl_block = std::make_unique<rtl::RtlSyncCam<Vstall_sync_cam>>(p, "stall");
  const rtl::RtlSyncCam<Vstall_sync_cam>& stalling = *rtl_block;
  LockstepSyncCam cam(std::make_unique<VoqSyncCam>(p), std::move(rtl_block),
                      LockstepCheck("test port sync CAM", "model", "rtl"));
  std::mt19937 rng(7);
  uint64_t commands = 0;
  for (Cycle now = 1; now < 20000; now += 1 + rng() % 3) {
    const uint32_t voq = rng() % 9;  // more VOQs than entries: evictions
    if (rng() % 3 == 0) {
      const uint32_t before[2] = {static_cast<uint32_t>(rng() % 9), static_cast<uint32_t>(rng() % 9)};
      cam.on_copy_forwarded(voq, 1 + rng() % 6, true, before, 2, now);
      commands += 2;
    } else {
      cam.on_copy_forwarded(voq, 1 + rng() % 6, false, nullptr, 0, now);
      commands += 1;
    }
    cam.suspended(voq);
    if (cam.suspended_count() > 0) {
      cam.tick(now);
      commands += 1;
    }
    cam.take_changes();
  }
  EXPECT_GT(stalling.rtl_activity().edges, commands + 1000) << "writes held cmd_ready low: more edges than commands";
}

// fabricsim-rtl-check's check, on this build's blocks (ours or a user's, at
// the sizes configured): every size, both blocks, a few seeds.
TEST(RtlLockstep, TheCheckerFindsThisBuildsBlocksEqualToTheModel) {
  rtl::CheckOptions o;
  o.seeds = 3;
  o.cycles = 5000;
  std::ostringstream report;
  EXPECT_TRUE(rtl::check_blocks(o, report)) << report.str();
  ASSERT_FALSE(rtl::sync_cam_sizes().empty());
  ASSERT_FALSE(rtl::packet_cache_sizes().empty());
  for (uint32_t entries : rtl::sync_cam_sizes()) {
    const std::string checked = "sync CAM (" + rtl::sync_cam_source() + "), " + std::to_string(entries) + " entries";
    EXPECT_NE(report.str().find(checked), std::string::npos) << checked << " in\n" << report.str();
  }
  for (uint32_t entries : rtl::packet_cache_sizes()) {
    const std::string checked =
        "packet cache (" + rtl::packet_cache_source() + "), " + std::to_string(entries) + " entries";
    EXPECT_NE(report.str().find(checked), std::string::npos) << checked << " in\n" << report.str();
  }
}

}  // namespace
}  // namespace fabric
#endif
