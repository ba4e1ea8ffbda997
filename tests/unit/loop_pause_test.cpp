// LoopPause: fabric-internal PAUSE at a surrogate port, from the VLs its
// egress held back and the VL it hands a frame back on.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "model/leaf/loop_pause.h"

namespace fabric {
namespace {

using Changes = std::vector<std::pair<int, bool>>;

Changes update(LoopPause& pause, std::bitset<kVls> blocked, int going) {
  Changes changes;
  pause.update(blocked, going, [&](int vl, bool paused) { changes.emplace_back(vl, paused); });
  return changes;
}

TEST(LoopPause, AHeldBackVlPausesOnceAndGoesWhenHandedBack) {
  LoopPause pause;
  std::bitset<kVls> blocked;
  blocked.set(3);
  EXPECT_EQ(update(pause, blocked, -1), (Changes{{3, true}}));
  EXPECT_TRUE(pause.paused(3));
  EXPECT_EQ(update(pause, blocked, -1), Changes{});  // still held: no second PAUSE
  EXPECT_EQ(update(pause, std::bitset<kVls>{}, 3), (Changes{{3, false}}));
  EXPECT_FALSE(pause.paused(3));
}

TEST(LoopPause, TheVlHandedBackNowIsNotPausedEvenIfAnotherFrameOfItWaited) {
  LoopPause pause;
  std::bitset<kVls> blocked;
  blocked.set(1);
  blocked.set(2);
  EXPECT_EQ(update(pause, blocked, 2), (Changes{{1, true}}));
  EXPECT_FALSE(pause.paused(2));
  // Then VL 2 is held back and VL 1 goes: both change, lowest VL first.
  blocked.reset(1);
  EXPECT_EQ(update(pause, blocked, 1), (Changes{{1, false}, {2, true}}));
}

TEST(LoopPause, NothingHeldNothingPausedNoChange) {
  LoopPause pause;
  EXPECT_EQ(update(pause, std::bitset<kVls>{}, -1), Changes{});
  EXPECT_EQ(update(pause, std::bitset<kVls>{}, 5), Changes{});
  for (int v = 0; v < kVls; ++v) EXPECT_FALSE(pause.paused(v));
}

}  // namespace
}  // namespace fabric
