// TimingWheel: pops in (due, insertion order) order, across buckets, across
// the wheel's wrap and from the overflow beyond its horizon, with entries
// pushed while popping, exactly like a reference priority queue.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <queue>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "model/core/timing_wheel.h"

namespace fabric {
namespace {

struct Ref {
  Picos due;
  uint64_t seq;
  int value;
  bool operator>(const Ref& o) const { return std::tie(due, seq) > std::tie(o.due, o.seq); }
};

// Pushes `initial` random entries, then pops everything, pushing a new entry
// after each pop with probability 1/2 (never earlier than the popped time),
// and compares each pop with a reference heap.
void compare_with_reference(int bucket_bits, int wheel_bits, Picos spread, uint32_t seed, int initial,
                            int slots_per_bucket = 128) {
  TimingWheel<int> wheel(bucket_bits, wheel_bits, slots_per_bucket);
  std::priority_queue<Ref, std::vector<Ref>, std::greater<Ref>> ref;
  std::mt19937_64 rng(seed);
  uint64_t seq = 0;
  int value = 0;
  auto push = [&](Picos due) {
    wheel.push(due, value);
    ref.push({due, seq++, value});
    ++value;
  };
  for (int i = 0; i < initial; ++i) push(static_cast<Picos>(rng() % static_cast<uint64_t>(spread)));
  int pushed_later = 0;
  while (!ref.empty()) {
    ASSERT_EQ(wheel.size(), ref.size());
    const auto e = wheel.pop();
    ASSERT_EQ(e.due, ref.top().due);
    ASSERT_EQ(e.value, ref.top().value);
    ref.pop();
    if (pushed_later < 4 * initial && rng() % 2 == 0) {
      // Mostly near-future, sometimes the same instant, sometimes far away.
      const uint64_t kind = rng() % 10;
      const Picos ahead = kind == 0   ? 0
                          : kind == 1 ? static_cast<Picos>(rng() % (spread * 8))
                                      : static_cast<Picos>(rng() % 2000);
      push(e.due + ahead);
      ++pushed_later;
    }
  }
  EXPECT_TRUE(wheel.empty());
}

TEST(TimingWheel, OrdersLikeAHeapWithinTheHorizon) { compare_with_reference(8, 14, 1'000'000, 1, 5000); }

TEST(TimingWheel, OrdersLikeAHeapAcrossWrapsAndOverflow) {
  // A tiny wheel (64 buckets of 16 ps: 1 ns horizon) against times spread
  // over microseconds: most entries pass through the overflow heap.
  compare_with_reference(4, 6, 5'000'000, 2, 3000);
}

TEST(TimingWheel, EqualTimesKeepInsertionOrder) {
  TimingWheel<int> wheel(8, 10);
  for (int i = 0; i < 100; ++i) wheel.push(12345, i);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(wheel.pop().value, i);
}

// `n` entries in one bucket, with many equal times: whichever sort the
// bucket gets, ties keep their insertion order.
void crowded_bucket_keeps_order(int bucket_bits, int slots_per_bucket, int n, Picos spread) {
  TimingWheel<int> wheel(bucket_bits, 10, slots_per_bucket);
  std::mt19937 rng(3);
  std::vector<std::pair<Picos, int>> expected;
  const Picos bucket_start = Picos{200} << bucket_bits;
  for (int i = 0; i < n; ++i) {
    const Picos due = bucket_start + static_cast<Picos>(rng() % static_cast<uint32_t>(spread));
    wheel.push(due, i);
    expected.push_back({due, i});
  }
  std::stable_sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [due, value] : expected) {
    const auto e = wheel.pop();
    ASSERT_EQ(e.due, due);
    ASSERT_EQ(e.value, value);
  }
  EXPECT_TRUE(wheel.empty());
}

TEST(TimingWheel, CrowdedBucketsSpillAndStillKeepOrder) {
  // 1000 entries in one 256 ps bucket, past its 128-entry block: counting sort.
  crowded_bucket_keeps_order(8, 128, 1000, 16);
}

TEST(TimingWheel, SparseCrowdedBucketsKeepOrder) {
  // 100 entries in one 4 ns bucket: too few for a pass over 4096 bins.
  crowded_bucket_keeps_order(12, 16, 100, 40);
}

TEST(TimingWheel, PeekingTheNextDueLeavesRoomForEarlierPushes) {
  // A partition's queue peeks at its next entry, finds it beyond the window
  // under way, and later receives an entry between the last pop and that
  // one: it must pop first.
  TimingWheel<int> wheel(12, 8, 4);
  wheel.push(1'000, 1);
  wheel.push(600'000, 2);
  EXPECT_EQ(wheel.pop().value, 1);
  EXPECT_EQ(wheel.next_due(), 600'000);
  wheel.push(200'000, 3);
  EXPECT_EQ(wheel.next_due(), 200'000);
  EXPECT_EQ(wheel.pop().value, 3);
  wheel.push(5'000'000, 4);  // beyond the horizon: the overflow counts too
  EXPECT_EQ(wheel.next_due(), 600'000);
  EXPECT_EQ(wheel.pop().value, 2);
  EXPECT_EQ(wheel.next_due(), 5'000'000);
  EXPECT_EQ(wheel.pop().value, 4);
}

TEST(TimingWheel, PopBeforeStopsAtTheEndAndTakesLaterPushesAtOrAfterIt) {
  TimingWheel<int> wheel(12, 8, 4);  // 4096 ps buckets
  TimingWheel<int>::Entry e;
  wheel.push(4'100, 1);
  wheel.push(4'200, 2);  // same bucket
  wheel.push(600'000, 3);
  ASSERT_TRUE(wheel.pop_before(4'150, e));
  EXPECT_EQ(e.value, 1);
  EXPECT_FALSE(wheel.pop_before(4'150, e));  // 4'200 is past the end, in the current bucket
  wheel.push(4'150, 4);                      // at the end: inside the current bucket, before 4'200
  ASSERT_TRUE(wheel.pop_before(100'000, e));
  EXPECT_EQ(e.value, 4);
  ASSERT_TRUE(wheel.pop_before(100'000, e));
  EXPECT_EQ(e.value, 2);
  EXPECT_FALSE(wheel.pop_before(300'000, e));  // nothing before; the wheel stays put
  wheel.push(300'000, 5);
  ASSERT_TRUE(wheel.pop_before(1'000'000, e));
  EXPECT_EQ(e.value, 5);
  ASSERT_TRUE(wheel.pop_before(1'000'000, e));
  EXPECT_EQ(e.value, 3);
  EXPECT_FALSE(wheel.pop_before(1'000'000, e));
  EXPECT_TRUE(wheel.empty());
}

TEST(TimingWheel, SmallBlocksSpillAndKeepOrder) { compare_with_reference(12, 8, 3'000'000, 4, 4000, 2); }

TEST(TimingWheel, APushIntoThePastIsServedNow) {
  TimingWheel<int> wheel(8, 10);
  wheel.push(10'000, 1);
  EXPECT_EQ(wheel.pop().due, 10'000);
  wheel.push(20'000, 2);
  wheel.push(3, 3);  // earlier than the bucket being served: clamped to its start
  const auto e = wheel.pop();
  EXPECT_EQ(e.value, 3);
  EXPECT_LE(e.due, 20'000);
  EXPECT_GE(e.due, 10'000 - 255);
  EXPECT_EQ(wheel.pop().value, 2);
}

TEST(TimingWheel, LongGapsFromAnEmptyWheelJumpThroughTheOverflow) {
  TimingWheel<int> wheel(8, 6);  // horizon 16 ns
  wheel.push(1'000'000'000, 1);
  wheel.push(5, 2);
  EXPECT_EQ(wheel.pop().value, 2);
  EXPECT_EQ(wheel.top().due, 1'000'000'000);
  EXPECT_EQ(wheel.pop().value, 1);
  EXPECT_TRUE(wheel.empty());
}

}  // namespace
}  // namespace fabric
