// FlowRoundRobin: the turn a CNA keeps over the flows of one priority when
// its transmit queue has room.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "model/cna/flow_round_robin.h"

namespace fabric {
namespace {

FlowRoundRobin of(const std::vector<size_t>& members) {
  FlowRoundRobin rr;
  for (size_t m : members) rr.add(m);
  return rr;
}

auto always = [](size_t) { return true; };
auto never = [](size_t) { return false; };

TEST(FlowRoundRobin, TwoAlwaysReadyFlowsAlternate) {
  FlowRoundRobin rr = of({3, 8});
  std::vector<size_t> order;
  for (int i = 0; i < 6; ++i) order.push_back(*rr.next(always));
  EXPECT_EQ(order, (std::vector<size_t>{3, 8, 3, 8, 3, 8}));
}

TEST(FlowRoundRobin, EmptyOrNoneReadyGivesNothingAndKeepsTheTurn) {
  FlowRoundRobin empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.next(always), std::nullopt);

  FlowRoundRobin rr = of({0, 1, 2});
  EXPECT_EQ(rr.next(always), 0u);
  EXPECT_EQ(rr.next(never), std::nullopt);
  EXPECT_EQ(rr.next(always), 1u);  // the turn did not move while nobody was ready
}

TEST(FlowRoundRobin, SkipsFlowsWithoutAFrameAndResumesAfterTheOneServed) {
  FlowRoundRobin rr = of({0, 1, 2, 3});
  std::set<size_t> ready{1, 3};
  auto is_ready = [&](size_t m) { return ready.count(m) > 0; };
  EXPECT_EQ(rr.next(is_ready), 1u);
  EXPECT_EQ(rr.next(is_ready), 3u);
  EXPECT_EQ(rr.next(is_ready), 1u);  // wraps past 0, which has nothing
  ready.insert(2);
  EXPECT_EQ(rr.next(is_ready), 2u);  // comes after 1, the one served last
  EXPECT_EQ(rr.next(is_ready), 3u);
}

// Declaration order must not matter: the flow added first gets no more
// turns than the others, whatever the readiness pattern.
TEST(FlowRoundRobin, BackloggedFlowsGetEqualTurnsUnderRandomReadiness) {
  FlowRoundRobin rr = of({0, 1, 2});
  std::mt19937_64 rng(5);
  std::map<size_t, int> turns;
  // 0 and 1 always have frames; 2 has one only now and then.
  for (int i = 0; i < 30000; ++i) {
    const bool two_ready = rng() % 4 == 0;
    ++turns[*rr.next([&](size_t m) { return m != 2 || two_ready; })];
  }
  EXPECT_LE(std::abs(turns[0] - turns[1]), 1);
  EXPECT_GT(turns[2], 0);
  EXPECT_LT(turns[2], turns[0]);
}

// A flow that stays ready is served within one round, however many flows
// are ahead of it.
TEST(FlowRoundRobin, AReadyFlowWaitsAtMostOneRound) {
  FlowRoundRobin rr = of({0, 1, 2, 3, 4});
  for (int i = 0; i < 3; ++i) rr.next(always);  // the turn is now at 3
  int picks = 0;
  std::optional<size_t> got;
  do {
    got = rr.next(always);
    ++picks;
  } while (got != 2u);
  EXPECT_EQ(picks, 5);  // 3, 4, 0, 1, then 2
}

TEST(FlowRoundRobin, MembersKeepTheirOrder) { EXPECT_EQ(of({4, 2, 9}).members(), (std::vector<size_t>{4, 2, 9})); }

}  // namespace
}  // namespace fabric
