// CircularQueue: a FIFO like std::deque through wraparound, growth beyond its
// inline slots, and moves.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <utility>
#include <vector>

#include "model/core/circular_queue.h"

namespace fabric {
namespace {

TEST(CircularQueue, BehavesLikeADequeUnderRandomPushesAndPops) {
  CircularQueue<int, 4> ring;
  std::deque<int> reference;
  std::mt19937 rng(7);
  int next = 0;
  for (int step = 0; step < 20000; ++step) {
    // Drifts between empty, a few (inline) and hundreds (grown).
    const bool push = reference.empty() || rng() % 100 < (step % 4000 < 2000 ? 60u : 40u);
    if (push) {
      ring.push_back(next);
      reference.push_back(next);
      ++next;
    } else {
      ASSERT_EQ(ring.front(), reference.front());
      ring.pop_front();
      reference.pop_front();
    }
    ASSERT_EQ(ring.size(), reference.size());
    if (!reference.empty()) {
      ASSERT_EQ(ring.front(), reference.front());
      ASSERT_EQ(ring.back(), reference.back());
      const size_t i = rng() % reference.size();
      ASSERT_EQ(ring[i], reference[i]);
    }
  }
}

TEST(CircularQueue, WrapsInsideItsInlineSlots) {
  CircularQueue<int, 4> ring;
  for (int i = 0; i < 3; ++i) ring.push_back(i);
  ring.pop_front();
  ring.pop_front();
  for (int i = 3; i < 6; ++i) ring.push_back(i);  // wraps around slot 3 -> 0
  std::vector<int> seen;
  while (!ring.empty()) {
    seen.push_back(ring.front());
    ring.pop_front();
  }
  EXPECT_EQ(seen, (std::vector<int>{2, 3, 4, 5}));
}

TEST(CircularQueue, MoveKeepsOrderAndEmptiesTheSource) {
  for (int n : {3, 9}) {  // inline, then grown
    CircularQueue<int, 4> a;
    a.push_back(-1);
    a.pop_front();  // head away from slot 0
    for (int i = 0; i < n; ++i) a.push_back(i);
    CircularQueue<int, 4> b(std::move(a));
    EXPECT_TRUE(a.empty());
    ASSERT_EQ(b.size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) EXPECT_EQ(b[i], i);
    a.push_back(42);  // the moved-from queue is usable
    EXPECT_EQ(a.front(), 42);
    std::vector<CircularQueue<int, 4>> many;
    many.push_back(std::move(b));
    many.emplace_back();  // reallocation moves the first one
    EXPECT_EQ(many[0].size(), static_cast<size_t>(n));
    EXPECT_EQ(many[0].back(), n - 1);
  }
}

}  // namespace
}  // namespace fabric
