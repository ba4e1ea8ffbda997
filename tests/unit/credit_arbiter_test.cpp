// CreditArbiter: deficit round robin over whole requests, bounded by the
// egress units it owns.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "model/leaf/credit_arbiter.h"

namespace fabric {
namespace {

using Grant = CreditArbiter::Grant;

struct Backlogged {
  uint32_t id;
  uint32_t units;  // size of each of its requests
  uint32_t weight;
};

// Keeps every requester backlogged (at least `depth` requests queued, more
// than one arbitrate() call can grant with these capacities), runs
// `iterations` arbitrations and releases each grant `lag` iterations after it
// was made. Returns the granted units per requester and checks the unit
// accounting on the way.
std::map<uint32_t, uint64_t> run_backlogged(CreditArbiter& arb, const std::vector<Backlogged>& reqs, int iterations,
                                            int lag, int depth = 64) {
  std::map<uint32_t, uint64_t> granted;
  std::map<uint32_t, int> queued;
  std::deque<uint32_t> outstanding_per_iter;  // units granted per iteration, to release later
  uint64_t outstanding = 0;
  for (const auto& r : reqs) {
    arb.set_weight(r.id, r.weight);
    granted[r.id] = 0;
  }
  std::vector<Grant> out;
  for (int it = 0; it < iterations; ++it) {
    for (const auto& r : reqs) {
      while (queued[r.id] < depth) {
        arb.request(r.id, r.units, 1);
        ++queued[r.id];
      }
    }
    out.clear();
    arb.arbitrate(out);
    uint32_t this_iter = 0;
    for (const Grant& g : out) {
      granted[g.requester] += g.units;
      --queued[g.requester];
      this_iter += g.units;
    }
    outstanding += this_iter;
    outstanding_per_iter.push_back(this_iter);
    EXPECT_LE(arb.free_units(), arb.capacity());
    EXPECT_EQ(uint64_t{arb.free_units()} + outstanding, arb.capacity()) << "iteration " << it;
    if (static_cast<int>(outstanding_per_iter.size()) > lag) {
      arb.release(outstanding_per_iter.front());
      outstanding -= outstanding_per_iter.front();
      outstanding_per_iter.pop_front();
    }
  }
  return granted;
}

TEST(CreditArbiter, EqualSharesForDifferentRequestSizesWithinOneQuantum) {
  const uint32_t quantum = 12;  // a multiple of both request sizes: no deficit left over
  CreditArbiter arb(36, quantum);
  auto g = run_backlogged(arb, {{1, 6, 1}, {2, 1, 1}}, 4000, 1);
  ASSERT_GT(g[1], 10000u);
  ASSERT_GT(g[2], 10000u);
  const int64_t diff = static_cast<int64_t>(g[1]) - static_cast<int64_t>(g[2]);
  EXPECT_LE(std::llabs(diff), static_cast<int64_t>(quantum)) << g[1] << " vs " << g[2];
}

TEST(CreditArbiter, EqualSharesThreeRequestersQuantumNotAMultiple) {
  // DRR bound: a requester is behind another by at most quantum + largest request.
  const uint32_t quantum = 8;
  CreditArbiter arb(40, quantum);
  auto g = run_backlogged(arb, {{10, 6, 1}, {20, 1, 1}, {30, 5, 1}}, 5000, 2);
  for (uint32_t a : {10u, 20u, 30u})
    for (uint32_t b : {10u, 20u, 30u}) {
      const int64_t diff = static_cast<int64_t>(g[a]) - static_cast<int64_t>(g[b]);
      EXPECT_LE(std::llabs(diff), static_cast<int64_t>(quantum + 6)) << a << ":" << g[a] << " " << b << ":" << g[b];
    }
  EXPECT_GT(g[20], 5000u);
}

TEST(CreditArbiter, WeightsGiveProportionalShares) {
  const uint32_t quantum = 6;
  CreditArbiter arb(60, quantum);
  auto g = run_backlogged(arb, {{1, 6, 1}, {2, 2, 3}, {3, 3, 2}}, 4000, 1);
  // Per round: 1 gets 6, 2 gets 18, 3 gets 12 units.
  const double base = static_cast<double>(g[1]);
  ASSERT_GT(base, 1000.0);
  EXPECT_NEAR(static_cast<double>(g[2]) / base, 3.0, 0.01);
  EXPECT_NEAR(static_cast<double>(g[3]) / base, 2.0, 0.01);
  EXPECT_LE(std::llabs(static_cast<int64_t>(g[2]) - 3 * static_cast<int64_t>(g[1])), 3 * quantum + 6);
}

TEST(CreditArbiter, ZeroWeightCountsAsOne) {
  CreditArbiter arb(24, 4);
  auto g = run_backlogged(arb, {{1, 2, 0}, {2, 2, 1}}, 1000, 1);
  EXPECT_LE(std::llabs(static_cast<int64_t>(g[1]) - static_cast<int64_t>(g[2])), 4);
  EXPECT_GT(g[1], 1000u);
}

TEST(CreditArbiter, GrantsWholeRequestsOnlyWhenFreeUnitsAllow) {
  CreditArbiter arb(10, 100);
  arb.request(1, 6, 2);
  arb.request(2, 6, 3);
  EXPECT_EQ(arb.pending_units(), 12u);
  EXPECT_EQ(arb.active_requesters(), 2u);
  std::vector<Grant> out;
  arb.arbitrate(out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].requester, 1u);
  EXPECT_EQ(out[0].units, 6u);
  EXPECT_EQ(out[0].frames, 2u);
  EXPECT_EQ(arb.free_units(), 4u);
  EXPECT_EQ(arb.pending_units(), 6u);
  EXPECT_EQ(arb.active_requesters(), 1u);

  out.clear();
  arb.arbitrate(out);  // still only 4 free: no partial grant of 6
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(arb.free_units(), 4u);

  arb.release(1);
  arb.arbitrate(out);
  EXPECT_TRUE(out.empty());
  arb.release(1);
  arb.arbitrate(out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].requester, 2u);
  EXPECT_EQ(out[0].units, 6u);
  EXPECT_EQ(out[0].frames, 3u);
  EXPECT_EQ(arb.free_units(), 0u);
  EXPECT_EQ(arb.pending_units(), 0u);
  EXPECT_EQ(arb.active_requesters(), 0u);
}

TEST(CreditArbiter, BlockedLargeRequestIsNotOvertakenBySmallOnes) {
  // Free units are held for the request whose turn it is, so small requests
  // of others cannot starve a jumbo one.
  CreditArbiter arb(10, 36);
  std::vector<Grant> out;
  arb.request(9, 8, 1);
  arb.arbitrate(out);
  ASSERT_EQ(out.size(), 1u);  // 2 free now
  out.clear();
  arb.request(1, 6, 1);
  arb.request(2, 1, 1);
  arb.arbitrate(out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(arb.free_units(), 2u);
  arb.release(8);
  arb.arbitrate(out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].requester, 1u);
  EXPECT_EQ(out[1].requester, 2u);
  EXPECT_EQ(arb.free_units(), 3u);
}

TEST(CreditArbiter, RequestOfExactlyCapacityIsGranted) {
  CreditArbiter arb(36, 1);
  arb.request(5, 36, 1);
  std::vector<Grant> out;
  arb.arbitrate(out);  // needs 36 rounds of quantum 1, all within one call
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].units, 36u);
  EXPECT_EQ(arb.free_units(), 0u);
}

TEST(CreditArbiter, RequestLargerThanCapacityThrows) {
  CreditArbiter arb(36, 36);
  EXPECT_THROW(arb.request(1, 37, 1), std::logic_error);
  EXPECT_EQ(arb.pending_units(), 0u);
  EXPECT_EQ(arb.active_requesters(), 0u);
}

TEST(CreditArbiter, ZeroQuantumThrows) { EXPECT_THROW(CreditArbiter(36, 0), std::invalid_argument); }

TEST(CreditArbiter, ReleaseReturnsUnitsAndOverReleaseThrows) {
  CreditArbiter arb(20, 10);
  EXPECT_EQ(arb.free_units(), 20u);
  EXPECT_THROW(arb.release(1), std::logic_error);  // nothing granted yet
  EXPECT_EQ(arb.free_units(), 20u);
  arb.request(1, 7, 1);
  std::vector<Grant> out;
  arb.arbitrate(out);
  EXPECT_EQ(arb.free_units(), 13u);
  arb.release(3);
  EXPECT_EQ(arb.free_units(), 16u);
  EXPECT_THROW(arb.release(5), std::logic_error);
  EXPECT_EQ(arb.free_units(), 16u);
  arb.release(4);
  EXPECT_EQ(arb.free_units(), 20u);
  EXPECT_THROW(arb.release(1), std::logic_error);
}

TEST(CreditArbiter, HugeReleaseThrowsInsteadOfWrapping) {
  CreditArbiter arb(100, 10);
  EXPECT_THROW(arb.release(std::numeric_limits<uint32_t>::max()), std::logic_error);
  EXPECT_EQ(arb.free_units(), 100u);
}

TEST(CreditArbiter, GrantsPreservePerRequesterFifoOrder) {
  CreditArbiter arb(36, 9);
  std::mt19937 rng(1234);
  std::uniform_int_distribution<uint32_t> size(1, 36);
  std::map<uint32_t, std::deque<std::pair<uint32_t, uint32_t>>> expected;  // (units, tag)
  uint32_t tag = 0;
  for (uint32_t r = 0; r < 5; ++r)
    for (int k = 0; k < 40; ++k) {
      const uint32_t u = size(rng);
      arb.request(r, u, ++tag);
      expected[r].push_back({u, tag});
    }
  std::vector<Grant> out;
  int granted = 0;
  for (int it = 0; it < 10000 && granted < 200; ++it) {
    out.clear();
    arb.arbitrate(out);
    for (const Grant& g : out) {
      ASSERT_FALSE(expected[g.requester].empty());
      EXPECT_EQ(g.units, expected[g.requester].front().first);
      EXPECT_EQ(g.frames, expected[g.requester].front().second);
      expected[g.requester].pop_front();
      arb.release(g.units);
      ++granted;
    }
  }
  EXPECT_EQ(granted, 200);
  EXPECT_EQ(arb.free_units(), 36u);
  EXPECT_EQ(arb.active_requesters(), 0u);
}

TEST(CreditArbiter, RandomWorkloadKeepsUnitAccounting) {
  CreditArbiter arb(56, 7);
  std::mt19937 rng(99);
  std::uniform_int_distribution<uint32_t> who(0, 7), size(1, 36), coin(0, 3);
  std::deque<uint32_t> held;
  uint64_t requested = 0, granted_units = 0;
  std::vector<Grant> out;
  for (int step = 0; step < 20000; ++step) {
    if (coin(rng) != 0) {
      const uint32_t u = size(rng);
      arb.request(who(rng), u, 1);
      requested += u;
    }
    out.clear();
    arb.arbitrate(out);
    for (const Grant& g : out) {
      held.push_back(g.units);
      granted_units += g.units;
    }
    if (!held.empty() && coin(rng) < 2) {
      arb.release(held.front());
      held.pop_front();
    }
    uint64_t in_use = 0;
    for (uint32_t u : held) in_use += u;
    ASSERT_LE(arb.free_units(), arb.capacity());
    ASSERT_EQ(arb.free_units() + in_use, arb.capacity());
    ASSERT_EQ(arb.pending_units(), requested - granted_units);
  }
}

}  // namespace
}  // namespace fabric

namespace fabric {
namespace {

// A dropped copy's request withdrawn by its number (`per_copy`): the whole
// request, or its part of a merged one; too late once granted.
TEST(CreditArbiterWithdraw, ByCopyTakesItsRequestOrItsPartOfAMergedOne) {
  CreditArbiter arb(1000, 36);
  arb.request(7, 6, 1, {0, 0});
  arb.request(7, 12, 2, {1, 2});
  arb.request(7, 6, 1, {3, 3});
  EXPECT_TRUE(arb.withdraw(7, 0, 6));
  EXPECT_TRUE(arb.withdraw(7, 2, 6));
  EXPECT_FALSE(arb.withdraw(7, 9, 6)) << "no such request";
  EXPECT_EQ(arb.pending_units(), 12u);
  std::vector<Grant> out;
  arb.arbitrate(out);
  ASSERT_EQ(out.size(), 2u) << "the withdrawn request passed over without a grant";
  EXPECT_EQ(out[0].units, 6u);
  EXPECT_EQ(out[0].copies.first, 1u);
  EXPECT_EQ(out[0].copies.last, 2u);
  EXPECT_EQ(out[1].units, 6u);
  EXPECT_EQ(out[1].copies.first, 3u);
  EXPECT_FALSE(arb.withdraw(7, 3, 6)) << "granted already";
  EXPECT_EQ(arb.active_requesters(), 0u);
}

// `withdraw`: as many units of the requester's newest requests, shrinking
// one if need be; what is not pending was granted already.
TEST(CreditArbiterWithdraw, NewestUnitsFirst) {
  CreditArbiter arb(1000, 36);
  arb.request(7, 6, 1, {0, 0});
  arb.request(7, 6, 1, {1, 1});
  arb.request(9, 6, 1, {0, 0});
  EXPECT_EQ(arb.withdraw_newest(7, 9), 9u);
  EXPECT_EQ(arb.pending_units(), 9u);
  std::vector<Grant> out;
  arb.arbitrate(out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].requester, 7u);
  EXPECT_EQ(out[0].units, 3u) << "the oldest request, shrunk by the 3 units left to withdraw";
  EXPECT_EQ(out[1].requester, 9u);
  EXPECT_EQ(arb.withdraw_newest(7, 6), 0u) << "granted already: nothing pending";
  EXPECT_EQ(arb.withdraw_newest(42, 6), 0u) << "a requester it never saw";
}

}  // namespace
}  // namespace fabric
