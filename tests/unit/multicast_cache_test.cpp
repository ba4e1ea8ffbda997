// The packet cache, each implementation (the C++ model, the RTL): driven cycle by cycle
// through its per-cycle interface.
#include <gtest/gtest.h>

#include <set>

#include "tests/support/block_implementations.h"

namespace fabric {
namespace {

class PacketCacheImplementations : public ::testing::TestWithParam<std::string> {};

using State = PacketCache::State;
constexpr uint32_t kPacketCycles = 8;  // 256 B at 36 B per cycle

// `evict_live`: the controller's background work also evicts idle live
// entries (leaf.cache.background_evict = idle, the default), or reclaims dead
// ones only (dead).
PacketCache::Params params(uint32_t entries, uint32_t background_free_min = 10, bool evict_live = true) {
  PacketCache::Params p;
  p.entries = entries;
  p.background_free_min = background_free_min;
  p.background_evicts_live = evict_live;
  return p;
}

TEST_P(PacketCacheImplementations, HitAfterWriteOnceTheHeaderLagHasPassed) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(128), 5);
  PacketCache& cache = *block;
  EXPECT_EQ(cache.lookup(0, 7, 0).state, State::miss);
  ASSERT_TRUE(cache.pass_through(0, 7, kPacketCycles, 3, true, 100));
  const PacketCache::Lookup during = cache.lookup(0, 7, 101);
  EXPECT_EQ(during.state, State::filling);
  EXPECT_EQ(during.ready_at, 103u);  // the first hit header follows the payload by 3 cycles
  EXPECT_EQ(cache.lookup(0, 7, 103).state, State::hit);
  EXPECT_EQ(cache.lookup(1, 7, 103).state, State::miss) << "tags are per port";
  EXPECT_EQ(cache.live_entries(), 1u);
  EXPECT_EQ(cache.stats(0).writes, 1u);
  EXPECT_EQ(cache.stats(0).misses, 0u) << "a first copy is not a miss";
}

TEST_P(PacketCacheImplementations, EntryDiesWithItsLastCopyAndItsTagGoesAtOnce) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(128), 5);
  PacketCache& cache = *block;
  cache.pass_through(2, 1, kPacketCycles, 2, true, 0);
  EXPECT_GE(cache.issue(2, 1, kPacketCycles, 3), 0);
  EXPECT_EQ(cache.live_entries(), 1u);
  EXPECT_GE(cache.issue(2, 1, kPacketCycles, 4), 0);
  EXPECT_EQ(cache.live_entries(), 0u);
  EXPECT_EQ(cache.dead_entries(), 1u) << "kept until reclaimed: 127 entries are free";
  EXPECT_EQ(cache.lookup(2, 1, 5).state, State::miss);
  EXPECT_EQ(cache.stats(2).hits, 2u);
  // The port's buffer unit may hold the next packet at once.
  EXPECT_TRUE(cache.pass_through(2, 1, kPacketCycles, 1, true, 20));
  EXPECT_EQ(cache.live_entries(), 1u);
}

TEST_P(PacketCacheImplementations, OneWritePerCycleAndOneWriterAtATime) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(128), 5);
  PacketCache& cache = *block;
  EXPECT_TRUE(cache.pass_through(0, 1, kPacketCycles, 1, true, 10));
  EXPECT_FALSE(cache.pass_through(1, 1, kPacketCycles, 1, true, 10)) << "second write in the same cycle";
  EXPECT_FALSE(cache.pass_through(1, 1, kPacketCycles, 1, true, 17)) << "write port busy for 8 cycles";
  EXPECT_TRUE(cache.pass_through(1, 1, kPacketCycles, 1, true, 18));
  EXPECT_FALSE(cache.pass_through(2, 1, kPacketCycles, 0, true, 40)) << "nothing to come: no write";
  EXPECT_EQ(cache.live_entries(), 2u);
}

TEST_P(PacketCacheImplementations, EightCopiesOfOnePacketInEightCycles) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(128), 5);
  PacketCache& cache = *block;
  cache.pass_through(0, 42, kPacketCycles, 9, true, 0);
  std::set<int> mirrors;
  for (Cycle c = 3; c < 11; ++c) {
    ASSERT_EQ(cache.lookup(0, 42, c).state, State::hit) << "cycle " << c;
    const int mirror = cache.issue(0, 42, kPacketCycles, c);
    ASSERT_GE(mirror, 0) << "cycle " << c;
    mirrors.insert(mirror);
  }
  EXPECT_EQ(mirrors.size(), 8u) << "each copy streams from its own mirror";
  EXPECT_EQ(cache.stats(0).hits, 8u);
  // Every mirror is busy for 8 cycles: a ninth copy waits until the first is free.
  EXPECT_EQ(cache.issue(0, 42, kPacketCycles, 10), -1);
  EXPECT_EQ(cache.mirror_free_at(10), 11u);
  EXPECT_GE(cache.issue(0, 42, kPacketCycles, 11), 0);
  EXPECT_EQ(cache.live_entries(), 0u);
}

TEST_P(PacketCacheImplementations, FullCacheEvictsTheLeastRecentlyUsedEntryWithCopiesOutstandingAndTellsItsPort) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(4, 0), 5);
  PacketCache& cache = *block;
  Cycle c = 0;
  for (uint32_t unit = 0; unit < 4; ++unit, c += kPacketCycles)
    cache.pass_through(unit % 2, unit, kPacketCycles, 2, true, c);
  EXPECT_GE(cache.issue(0, 0, kPacketCycles, c), 0);  // unit 0 used last: unit 1 (port 1) is now the LRU
  c += kPacketCycles;
  ASSERT_TRUE(cache.pass_through(3, 9, kPacketCycles, 1, true, c));
  EXPECT_EQ(cache.lookup(1, 1, c + 5).state, State::miss) << "the LRU entry's tag is invalidated";
  EXPECT_EQ(cache.lookup(0, 0, c + 5).state, State::hit);
  const std::vector<PacketCache::Eviction> notices = cache.take_evictions();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].port, 1);
  EXPECT_EQ(notices[0].unit, 1u);
  EXPECT_EQ(notices[0].copies_left, 2u);
  EXPECT_EQ(cache.stats(1).premature_evictions, 1u);
  EXPECT_EQ(cache.stats(1).background_reclaims, 0u);
  // Its next copy goes through the payload interface: a miss.
  cache.pass_through(1, 1, kPacketCycles, 1, false, c + 8);
  EXPECT_EQ(cache.stats(1).misses, 1u);
}

TEST_P(PacketCacheImplementations, WithDeadOnlyNoEntryWhoseCopiesAreAllToComeIsEvictedWhileAFreeEntryExists) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(16, 10, false), 5);
  PacketCache& cache = *block;  // background reclaim of dead entries below 10 free entries
  Cycle c = 0;
  for (uint32_t unit = 0; unit < 15; ++unit, c += kPacketCycles) {
    ASSERT_TRUE(cache.pass_through(0, unit, kPacketCycles, 4, true, c));
    for (Cycle k = c; k < c + kPacketCycles; ++k) cache.end_cycle(k);
  }
  EXPECT_EQ(cache.free_entries(), 1u);
  EXPECT_FALSE(cache.background_work()) << "untouched entries are never background-evicted";
  EXPECT_TRUE(cache.take_evictions().empty());
  ASSERT_TRUE(cache.pass_through(0, 99, kPacketCycles, 4, true, c));
  EXPECT_TRUE(cache.take_evictions().empty()) << "the write took the free entry";
  EXPECT_EQ(cache.free_entries(), 0u);
  for (uint32_t unit = 0; unit < 15; ++unit) EXPECT_NE(cache.lookup(0, unit, c + 10).state, State::miss);
}

TEST_P(PacketCacheImplementations, AWriteIntoAFullCacheTakesADeadEntryBeforeEvictingALiveOne) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(4, 0), 5);
  PacketCache& cache = *block;
  Cycle c = 0;
  for (uint32_t unit = 0; unit < 4; ++unit, c += kPacketCycles) cache.pass_through(0, unit, kPacketCycles, 2, true, c);
  ASSERT_GE(cache.issue(0, 2, kPacketCycles, c), 0);
  ASSERT_GE(cache.issue(0, 2, kPacketCycles, c + 1), 0);  // unit 2 is dead; unit 0 is the least recently used
  ASSERT_TRUE(cache.pass_through(1, 9, kPacketCycles, 1, true, c + 1 + kPacketCycles));
  EXPECT_TRUE(cache.take_evictions().empty());
  EXPECT_EQ(cache.stats(0).premature_evictions, 0u);
  EXPECT_EQ(cache.dead_entries(), 0u);
  for (uint32_t unit : {0u, 1u, 3u}) EXPECT_EQ(cache.lookup(0, unit, c + 20).state, State::hit) << "unit " << unit;
}

// Like a VOQ that sync suspends, or a remote copy not granted yet: entries
// read by some copies with others still to come, and entries not read yet.
TEST_P(PacketCacheImplementations, WithDeadOnlyBackgroundReclaimNeverTakesAnEntryWithCopiesStillToCome) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(16, 10, false), 5);
  PacketCache& cache = *block;  // reclaim of dead entries below 10 free entries
  Cycle c = 0;
  for (uint32_t unit = 0; unit < 10; ++unit, c += kPacketCycles) cache.pass_through(0, unit, kPacketCycles, 3, true, c);
  for (uint32_t unit = 0; unit < 8; ++unit) ASSERT_GE(cache.issue(0, unit, kPacketCycles, c + unit), 0);
  ASSERT_EQ(cache.free_entries(), 6u);
  EXPECT_FALSE(cache.background_work());
  for (Cycle k = c; k < c + 1000; ++k) cache.end_cycle(k);
  EXPECT_EQ(cache.free_entries(), 6u);
  EXPECT_EQ(cache.live_entries(), 10u);
  for (uint32_t unit = 0; unit < 10; ++unit)
    EXPECT_EQ(cache.lookup(0, unit, c + 1000).state, State::hit) << "unit " << unit;
  EXPECT_TRUE(cache.take_evictions().empty());
  EXPECT_EQ(cache.stats(0).background_reclaims, 0u);
  EXPECT_EQ(cache.stats(0).premature_evictions, 0u);
}

// The text of the paper's Fig. 4(c): below 10 free entries the controller
// evicts one entry with no outstanding headers per cycle, a live one too
// (its port is told; its next copies miss), never one being written or read.
TEST_P(PacketCacheImplementations, BelowTenFreeEntriesAnIdleLiveEntryIsEvictedPerCycleWhenNoDeadOneIsLeft) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(16), 5);
  PacketCache& cache = *block;
  Cycle c = 0;
  for (uint32_t unit = 0; unit < 10; ++unit, c += kPacketCycles) cache.pass_through(0, unit, kPacketCycles, 3, true, c);
  ASSERT_GE(cache.issue(0, 0, kPacketCycles, c), 0);  // unit 0 is read until c + 8
  ASSERT_EQ(cache.free_entries(), 6u);
  ASSERT_TRUE(cache.background_work());
  for (Cycle k = c; k < c + 100; ++k) cache.end_cycle(k);
  EXPECT_EQ(cache.free_entries(), 10u) << "one a cycle until 10 are free";
  EXPECT_FALSE(cache.background_work());
  const std::vector<PacketCache::Eviction> notices = cache.take_evictions();
  ASSERT_EQ(notices.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(notices[i].unit, i + 1) << "least recently used first; unit 0 was being read";
    EXPECT_EQ(notices[i].copies_left, 3u);
  }
  EXPECT_EQ(cache.stats(0).premature_evictions, 4u);
  EXPECT_EQ(cache.lookup(0, 0, c + 100).state, State::hit);
  EXPECT_EQ(cache.lookup(0, 1, c + 100).state, State::miss);
  EXPECT_EQ(cache.lookup(0, 5, c + 100).state, State::hit);
}

TEST_P(PacketCacheImplementations, BelowTenFreeEntriesOneDeadEntryIsReclaimedPerCycleOnceItsReadsHaveLeft) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(16), 5);
  PacketCache& cache = *block;
  Cycle c = 0;
  for (uint32_t unit = 0; unit < 8; ++unit, c += kPacketCycles) cache.pass_through(0, unit, kPacketCycles, 2, true, c);
  // Units 0..3: both copies read (dead); units 4..7: one of two (live).
  for (uint32_t unit = 0; unit < 4; ++unit, c += 2) {
    ASSERT_GE(cache.issue(0, unit, kPacketCycles, c), 0);
    ASSERT_GE(cache.issue(0, unit, kPacketCycles, c + 1), 0);
  }
  for (uint32_t unit = 4; unit < 8; ++unit) ASSERT_GE(cache.issue(0, unit, kPacketCycles, c + unit - 4), 0);
  ASSERT_EQ(cache.free_entries(), 8u);
  ASSERT_EQ(cache.dead_entries(), 4u);
  ASSERT_TRUE(cache.background_work());
  // Unit 0's last read was issued at c - 7 and streams for 8 cycles.
  cache.end_cycle(c);
  EXPECT_EQ(cache.dead_entries(), 4u) << "a dead entry is reclaimed only once its last copy has left";
  cache.end_cycle(c + 1);
  EXPECT_EQ(cache.dead_entries(), 3u);
  EXPECT_EQ(cache.free_entries(), 9u);
  c += 20;
  cache.end_cycle(c);
  EXPECT_EQ(cache.free_entries(), 10u) << "one per cycle";
  EXPECT_FALSE(cache.background_work()) << "10 free: the other dead entries wait";
  cache.end_cycle(c + 1);
  EXPECT_EQ(cache.dead_entries(), 2u);
  EXPECT_EQ(cache.live_entries(), 4u);
  EXPECT_EQ(cache.stats(0).background_reclaims, 2u);
  EXPECT_EQ(cache.stats(0).premature_evictions, 0u);
  EXPECT_TRUE(cache.take_evictions().empty());
}

TEST_P(PacketCacheImplementations, ACopyDroppedBeforeItsReadLeavesTheEntryDeadWhenNoOtherCopyWillReadIt) {
  const auto block = testing::make_packet_cache_for_test(GetParam(), params(16), 5);
  PacketCache& cache = *block;
  cache.pass_through(3, 5, kPacketCycles, 2, true, 0);
  cache.forget_copy(3, 77);  // a packet not cached: nothing to count down
  ASSERT_GE(cache.issue(3, 5, kPacketCycles, 3), 0);
  EXPECT_EQ(cache.live_entries(), 1u);
  cache.forget_copy(3, 5);  // the other copy left its VOQ from the head, dropped
  EXPECT_EQ(cache.live_entries(), 0u);
  EXPECT_EQ(cache.dead_entries(), 1u);
  EXPECT_EQ(cache.lookup(3, 5, 4).state, State::miss);
}

INSTANTIATE_TEST_SUITE_P(Each, PacketCacheImplementations, ::testing::ValuesIn(testing::block_implementations()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace fabric
