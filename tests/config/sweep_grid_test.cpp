// SweepGrid: point numbers and coordinates (the last dimension fastest), the
// points that stand for a sweep (every value, every pair of values, the
// others at their first; every point when that is not fewer), and the
// combinations of chosen dimensions.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "config/sweep_grid.h"

namespace fabric::config {
namespace {

TEST(SweepGrid, NumbersAndCoordinatesAreEachOthersInverse) {
  const SweepGrid grid({3, 2, 4});
  EXPECT_EQ(grid.size(), 24u);
  EXPECT_EQ(grid.index({0, 0, 1}), 1u);
  EXPECT_EQ(grid.index({0, 1, 0}), 4u);
  EXPECT_EQ(grid.index({2, 1, 3}), 23u);
  for (uint64_t i = 0; i < grid.size(); ++i) EXPECT_EQ(grid.index(grid.at(i)), i);
  EXPECT_EQ(grid.projection({2, 1, 3}, {0, 2}), (SweepCoordinates{2, 0, 3}));
  EXPECT_EQ(SweepGrid({}).size(), 1u) << "no sweep: one point";
}

TEST(SweepGrid, ValuesAndPairsStandForAGridOfManyDimensions) {
  const SweepGrid grid({10, 10, 10, 10, 10, 10});  // a million points
  const std::vector<uint64_t> points = grid.values_and_pairs();
  EXPECT_EQ(points.size(), 1u + 6 * 9 + 15 * 81);
  EXPECT_TRUE(std::is_sorted(points.begin(), points.end()));
  EXPECT_EQ(std::set<uint64_t>(points.begin(), points.end()).size(), points.size());
  std::set<std::pair<size_t, size_t>> values;
  std::set<std::vector<size_t>> pairs;  // (a, i, b, j)
  for (const uint64_t p : points) {
    const SweepCoordinates at = grid.at(p);
    std::vector<size_t> moved;
    for (size_t d = 0; d < at.size(); ++d)
      if (at[d]) moved.push_back(d);
    ASSERT_LE(moved.size(), 2u) << p;
    for (const size_t d : moved) values.insert({d, at[d]});
    if (moved.size() == 2) pairs.insert({moved[0], at[moved[0]], moved[1], at[moved[1]]});
  }
  EXPECT_EQ(values.size(), 6u * 9);
  EXPECT_EQ(pairs.size(), 15u * 81);
}

TEST(SweepGrid, EveryPointWhenThatIsNotMore) {
  EXPECT_EQ(SweepGrid({4, 4}).values_and_pairs().size(), 16u);
  EXPECT_EQ(SweepGrid({100000}).values_and_pairs().size(), 100000u);
  EXPECT_EQ(SweepGrid({}).values_and_pairs(), std::vector<uint64_t>{0});
  EXPECT_EQ(SweepGrid({2, 2, 2}).values_and_pairs().size(), 7u) << "all but the point that moves three";
}

TEST(SweepGrid, CombinationsOfChosenDimensions) {
  const SweepGrid grid({3, 2, 4});
  EXPECT_EQ(grid.combinations({}), std::vector<uint64_t>{0});
  EXPECT_EQ(grid.combinations({0, 2}), (std::vector<uint64_t>{0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19}));
  EXPECT_EQ(grid.combinations({0, 1, 2}).size(), 24u);
}

}  // namespace
}  // namespace fabric::config
