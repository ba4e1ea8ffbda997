// The qualification stimulus (rtl/check/block_stimulus.h) drives every input
// of the blocks' contracts over its whole width (issue 53): VOQ ids and
// buffer units at both ends and in pairs that differ in one bit, time past
// 2^40 and 2^62 and up to 2^63 (a deadline without timeout at the top of 64
// bits), packet counts up to 2^32 - 1 without overflowing the model's
// count, and cache lengths and copies at their 16-bit maxima. Observed on
// the C++ models, through their interfaces.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/multicast/multicast_cache.h"
#include "model/multicast/voq_sync_cam.h"
#include "rtl/check/block_stimulus.h"

namespace fabric {
namespace {

constexpr Cycle k2To40 = Cycle{1} << 40;
constexpr Cycle k2To62 = Cycle{1} << 62;

// The model, and what the stimulus asked of it.
class WatchedSyncCam final : public SyncCam {
 public:
  explicit WatchedSyncCam(const Params& p) : model_(p) {}
  bool suspended(uint32_t voq) const override { return model_.suspended(voq); }
  void on_copy_forwarded(uint32_t voq, uint32_t packets, bool last_copy, const uint32_t* sent_before,
                         size_t sent_before_count, Cycle now) override {
    const uint64_t before = model_.ahead(voq);
    model_.on_copy_forwarded(voq, packets, last_copy, sent_before, sent_before_count, now);
    first_now = std::min(first_now, now);
    last_now = std::max(last_now, now);
    if (!last_copy) {
      // The count grew by the packets: it did not wrap at 32 bits.
      if (model_.ahead(voq) != before + packets) wrapped = true;
      most_ahead = std::max(most_ahead, model_.ahead(voq));
    }
    if (model_.next_timeout() != ~Cycle{0}) latest_deadline = std::max(latest_deadline, model_.next_timeout());
  }
  void tick(Cycle now) override { model_.tick(now); }
  Cycle next_timeout() const override { return model_.next_timeout(); }
  std::vector<Change> take_changes() override { return model_.take_changes(); }
  void reset(Cycle now) override { model_.reset(now); }
  uint32_t ahead(uint32_t voq) const override { return model_.ahead(voq); }
  size_t used_entries() const override { return model_.used_entries(); }
  size_t suspended_count() const override { return model_.suspended_count(); }
  uint64_t evictions() const override { return model_.evictions(); }

  Cycle first_now = ~Cycle{0};
  Cycle last_now = 0;
  Cycle latest_deadline = 0;
  uint32_t most_ahead = 0;
  bool wrapped = false;

 private:
  VoqSyncCam model_;
};

TEST(BlockStimulus, SyncCamVoqIdsSpanTheContractsWidthWithPairsForEveryBit) {
  const stimulus::SyncCamStimulus s(1, 24, false);
  const std::vector<uint32_t>& ids = s.voq_ids();
  ASSERT_EQ(ids.size(), 50u);
  EXPECT_NE(std::find(ids.begin(), ids.end(), 0u), ids.end());
  EXPECT_NE(std::find(ids.begin(), ids.end(), stimulus::widths::kMaxVoq), ids.end());
  std::vector<uint32_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "an id twice";
  for (uint32_t bit = 0; bit < 16; ++bit) {
    bool paired = false;
    for (size_t k = 2; k + 1 < ids.size(); k += 2) paired = paired || (ids[k] ^ ids[k + 1]) == (1u << bit);
    EXPECT_TRUE(paired) << "no two VOQs differ in bit " << bit << " alone";
  }
  for (uint32_t id : ids) EXPECT_LE(id, stimulus::widths::kMaxVoq);
}

TEST(BlockStimulus, SyncCamTimeAndCountsReachTheTopWithoutOverflow) {
  uint32_t most_ahead = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    for (bool timeouts : {false, true}) {
      stimulus::SyncCamStimulus s(seed, 24, timeouts);
      WatchedSyncCam cam(s.params());
      const stimulus::SyncCamStimulus::Result r = s.run(cam, 20000);
      EXPECT_FALSE(r.deadlock) << "seed " << seed;
      EXPECT_FALSE(cam.wrapped) << "seed " << seed << ": a count wrapped at 32 bits";
      EXPECT_LT(cam.last_now, stimulus::widths::kNowLimit) << "seed " << seed;
      if (seed % 4 == 1) EXPECT_TRUE(cam.first_now < k2To40 && cam.last_now >= k2To40) << "seed " << seed;
      if (seed % 4 == 2) EXPECT_TRUE(cam.first_now < k2To62 && cam.last_now >= k2To62) << "seed " << seed;
      // Without timeouts a deadline is now + 2^63 - 1: near 2^64 - 1, not past it.
      if (seed % 4 == 3 && !timeouts) EXPECT_GE(cam.latest_deadline, ~Cycle{0} - 30000) << "seed " << seed;
      most_ahead = std::max(most_ahead, cam.most_ahead);
    }
  }
  EXPECT_EQ(most_ahead, stimulus::widths::kMaxPackets);
}

// The cache model, and what the stimulus asked of it.
class WatchedPacketCache final : public PacketCache {
 public:
  WatchedPacketCache(const Params& p, int ports) : model_(p, ports) {}
  Lookup lookup(int port, uint32_t unit, Cycle now) const override { return model_.lookup(port, unit, now); }
  bool pass_through(int port, uint32_t unit, uint32_t cycles, uint32_t copies_to_come, bool first_copy,
                    Cycle now) override {
    seen(unit, cycles, now);
    most_copies = std::max(most_copies, copies_to_come);
    return model_.pass_through(port, unit, cycles, copies_to_come, first_copy, now);
  }
  int issue(int port, uint32_t unit, uint32_t cycles, Cycle now) override {
    seen(unit, cycles, now);
    return model_.issue(port, unit, cycles, now);
  }
  void forget_copy(int port, uint32_t unit) override { model_.forget_copy(port, unit); }
  void end_cycle(Cycle now) override { model_.end_cycle(now); }
  std::vector<Eviction> take_evictions() override { return model_.take_evictions(); }
  void reset(Cycle now) override { model_.reset(now); }
  Cycle mirror_free_at(Cycle now) const override { return model_.mirror_free_at(now); }
  bool background_work() const override { return model_.background_work(); }
  uint32_t live_entries() const override { return model_.live_entries(); }
  uint32_t dead_entries() const override { return model_.dead_entries(); }
  const Params& params() const override { return model_.params(); }
  const PortStats& stats(int port) const override { return model_.stats(port); }
  int ports() const override { return model_.ports(); }

  uint32_t lowest_unit = ~uint32_t{0};
  uint32_t highest_unit = 0;
  uint32_t most_cycles = 0;
  uint32_t most_copies = 0;
  Cycle first_now = ~Cycle{0};
  Cycle last_now = 0;

 private:
  void seen(uint32_t unit, uint32_t cycles, Cycle now) {
    lowest_unit = std::min(lowest_unit, unit);
    highest_unit = std::max(highest_unit, unit);
    most_cycles = std::max(most_cycles, cycles);
    first_now = std::min(first_now, now);
    last_now = std::max(last_now, now);
  }
  MulticastCache model_;
};

TEST(BlockStimulus, PacketCacheUnitsLengthsCopiesAndTimeSpanTheContractsWidth) {
  uint32_t most_cycles = 0;
  uint32_t most_copies = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    stimulus::PacketCacheStimulus s(seed, 128, 8, 6);
    WatchedPacketCache cache(s.params(), 6);
    s.run(cache, 20000);
    EXPECT_EQ(cache.lowest_unit, 0u) << "seed " << seed;
    EXPECT_EQ(cache.highest_unit, stimulus::widths::kMaxUnit) << "seed " << seed;
    EXPECT_LT(cache.last_now, stimulus::widths::kNowLimit) << "seed " << seed;
    if (seed % 4 == 1) EXPECT_TRUE(cache.first_now < k2To40 && cache.last_now >= k2To40) << "seed " << seed;
    if (seed % 4 == 2) EXPECT_TRUE(cache.first_now < k2To62 && cache.last_now >= k2To62) << "seed " << seed;
    if (seed % 4 == 3) EXPECT_GE(cache.last_now, stimulus::widths::kNowLimit - (Cycle{1} << 26)) << "seed " << seed;
    most_cycles = std::max(most_cycles, cache.most_cycles);
    most_copies = std::max(most_copies, cache.most_copies);
  }
  EXPECT_EQ(most_cycles, stimulus::widths::kMaxCacheCycles);
  EXPECT_EQ(most_copies, stimulus::widths::kMaxCopies);
}

}  // namespace
}  // namespace fabric
