// SweepCheckStates: the checks of every point of a sweep from the points
// resolved. Checks that depend on one, two or three dimensions, made only
// at some points, failing at some: after the values and pairs and the
// combinations settle_dependencies asks for, every point's warnings are the
// ones the point would have made.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "config/sweep_check_states.h"

namespace fabric::config {
namespace {

// What a point "resolves" to: checks as functions of its coordinates.
std::vector<CheckResult> checks_at(const SweepCoordinates& at) {
  std::vector<CheckResult> out;
  // Depends on dimension 1 alone; fails at its last value.
  out.push_back({"one", {"k1"}, at[1] != 3, "k1 at " + std::to_string(at[1])});
  // Reads dimensions 0 and 2: fails where their sum is 5.
  out.push_back({"two", {"k0", "k2"}, at[0] + at[2] != 5, "sum " + std::to_string(at[0] + at[2])});
  // Made only when dimension 4 is not at its first value; its numbers read 0, 1 and 3.
  if (at[4] != 0)
    out.push_back({"three",
                   {"k0"},
                   !(at[0] == 2 && at[1] == 1 && at[3] == 2),
                   std::to_string(at[0]) + "/" + std::to_string(at[1]) + "/" + std::to_string(at[3])});
  out.push_back({"always holds", {}, true, "fine"});
  return out;
}

std::vector<std::string> details(const std::vector<CheckResult>& checks) {
  std::vector<std::string> out;
  for (const CheckResult& c : checks)
    if (!c.holds) out.push_back(c.name + ": " + c.detail);
  return out;
}

TEST(SweepCheckStates, EveryPointsWarningsFromThePointsThatStandForIt) {
  const SweepGrid grid({3, 4, 4, 3, 2});  // 288 points
  SweepCheckStates states(grid);
  const std::vector<uint64_t> first = grid.values_and_pairs();
  ASSERT_LT(first.size(), grid.size());
  for (const uint64_t p : first) states.record(p, checks_at(grid.at(p)));
  const std::vector<uint64_t> more = states.settle_dependencies();
  for (const uint64_t p : more) {
    EXPECT_FALSE(states.recorded(p));
    states.record(p, checks_at(grid.at(p)));
  }
  EXPECT_EQ(states.dependencies("one"), (std::vector<size_t>{1}));
  EXPECT_EQ(states.dependencies("two"), (std::vector<size_t>{0, 2}));
  EXPECT_EQ(states.dependencies("three"), (std::vector<size_t>{0, 1, 3, 4}));
  EXPECT_EQ(states.dependencies("always holds"), std::vector<size_t>{});
  EXPECT_LT(first.size() + more.size(), grid.size());
  size_t warned = 0;
  for (uint64_t p = 0; p < grid.size(); ++p) {
    const std::vector<std::string> expected = details(checks_at(grid.at(p)));
    std::vector<std::string> got = details(states.warnings(p));
    std::sort(got.begin(), got.end());
    std::vector<std::string> sorted = expected;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(got, sorted) << "point " << p;
    warned += expected.empty() ? 0 : 1;
  }
  EXPECT_GT(warned, 0u);
}

TEST(SweepCheckStates, AGridResolvedWholeAnswersForEachPoint) {
  const SweepGrid grid({3, 4, 2, 3, 2});
  SweepCheckStates states(grid);
  for (uint64_t p = 0; p < grid.size(); ++p) states.record(p, checks_at(grid.at(p)));
  EXPECT_TRUE(states.settle_dependencies().empty());
  for (uint64_t p = 0; p < grid.size(); ++p)
    EXPECT_EQ(details(states.warnings(p)), details(checks_at(grid.at(p)))) << p;
}

}  // namespace
}  // namespace fabric::config
