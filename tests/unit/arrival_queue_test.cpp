// ArrivalQueue keeps FIFO order across its inline ring and its overflow.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "model/link/arrival_queue.h"

namespace fabric {
namespace {

Payload* fake(uintptr_t i) { return reinterpret_cast<Payload*>(i * 16); }

TEST(ArrivalQueue, FifoAcrossRingAndOverflow) {
  ArrivalQueue q;
  for (Picos t = 1; t <= 20; ++t) q.push({t, fake(static_cast<uintptr_t>(t))});  // 8 inline, 12 overflow
  EXPECT_EQ(q.size(), 20u);
  for (Picos t = 1; t <= 20; ++t) {
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.front().at, t);
    EXPECT_EQ(q.front().payload, fake(static_cast<uintptr_t>(t)));
    q.pop();
  }
  EXPECT_TRUE(q.empty());
}

TEST(ArrivalQueue, RandomPushesAndPopsMatchADeque) {
  ArrivalQueue q;
  std::deque<Picos> model;
  std::mt19937 rng(5);
  Picos next = 0;
  for (int step = 0; step < 100000; ++step) {
    if (model.empty() || rng() % 100 < 55) {
      q.push({++next, fake(static_cast<uintptr_t>(next))});
      model.push_back(next);
    } else {
      ASSERT_EQ(q.front().at, model.front());
      q.pop();
      model.pop_front();
    }
    ASSERT_EQ(q.size(), model.size());
  }
}

}  // namespace
}  // namespace fabric
