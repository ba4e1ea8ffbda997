// FlatMap: the same answers as std::unordered_map for inserts and look-ups,
// through growth and colliding keys.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_map>

#include "model/core/flat_map.h"

namespace fabric {
namespace {

TEST(FlatMap, AnswersLikeAnUnorderedMapThroughGrowth) {
  FlatMap<uint64_t> flat(2);
  std::unordered_map<uint64_t, uint64_t> reference;
  std::mt19937_64 rng(11);
  for (int step = 0; step < 200000; ++step) {
    // Keys like a VOQ's: a few fields in high and low bits, many repeats.
    const uint64_t key = (rng() % 4) << 60 | (rng() % 8) << 52 | (rng() % 40) << 26 | rng() % 640;
    if (rng() % 3 == 0) {
      const uint64_t* found = flat.find(key);
      const auto it = reference.find(key);
      ASSERT_EQ(found != nullptr, it != reference.end());
      if (found) {
        ASSERT_EQ(*found, it->second);
      }
    } else {
      flat[key] += step;
      reference[key] += step;
    }
  }
  EXPECT_EQ(flat.size(), reference.size());
  for (const auto& [key, value] : reference) {
    const uint64_t* found = flat.find(key);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(*found, value);
  }
}

TEST(FlatMap, ANewKeyStartsDefaultAndProbingKeepsKeysApart) {
  FlatMap<int> flat(2);
  EXPECT_EQ(flat.find(0), nullptr);
  EXPECT_EQ(flat[0], 0);
  EXPECT_EQ(flat.size(), 1u);
  // A table of 2 slots takes 1 key: the next ones share homes until it grows.
  for (int k = 1; k < 100; ++k) flat[static_cast<uint64_t>(k) << 40 | static_cast<uint64_t>(k)] = k;
  EXPECT_EQ(flat.size(), 100u);
  for (int k = 1; k < 100; ++k) EXPECT_EQ(*flat.find(static_cast<uint64_t>(k) << 40 | static_cast<uint64_t>(k)), k);
  EXPECT_EQ(*flat.find(0), 0);
  EXPECT_EQ(flat.find(uint64_t{1} << 40), nullptr);
}

}  // namespace
}  // namespace fabric
