// HoldoffBatcher: coalescing of a VOQ's control messages.
#include "model/leaf/holdoff_batcher.h"

#include <gtest/gtest.h>

namespace fabric {
namespace {

// Items are message sizes; merging adds them, up to 10.
struct Msg {
  int units;
};
auto merge_up_to_10 = [](Msg* held, Msg* incoming) {
  if (held->units + incoming->units > 10) return false;
  held->units += incoming->units;
  return true;
};

TEST(HoldoffBatcher, TheFirstMessageAfterAQuietSpellLeavesAtOnce) {
  HoldoffBatcher<Msg*> b(100, 8);
  Msg a{1}, c{1};
  auto o = b.offer(7, &a, 0, merge_up_to_10);
  ASSERT_TRUE(o.send);
  EXPECT_EQ(*o.send, &a);
  EXPECT_FALSE(o.due);
  o = b.offer(7, &c, 100, merge_up_to_10);  // a full hold-off later: quiet again
  ASSERT_TRUE(o.send);
  EXPECT_EQ(*o.send, &c);
}

TEST(HoldoffBatcher, AMessageWithinTheHoldoffWaitsAndLaterOnesMergeIntoIt) {
  HoldoffBatcher<Msg*> b(100, 8);
  Msg a{1}, c{2}, d{3};
  b.offer(7, &a, 0, merge_up_to_10);
  auto o = b.offer(7, &c, 30, merge_up_to_10);
  EXPECT_FALSE(o.send);
  ASSERT_TRUE(o.due);
  EXPECT_EQ(*o.due, 100);  // the hold-off counts from the last message sent
  o = b.offer(7, &d, 60, merge_up_to_10);
  EXPECT_FALSE(o.send);
  EXPECT_FALSE(o.due);
  EXPECT_EQ(c.units, 5);
  EXPECT_EQ(b.merged(), 1u);
  EXPECT_FALSE(b.take_due(7, 99));
  const auto due = b.take_due(7, 100);
  ASSERT_TRUE(due);
  EXPECT_EQ(*due, &c);
  EXPECT_FALSE(b.take_due(7, 100));  // taken once
}

TEST(HoldoffBatcher, KeysAreIndependent) {
  HoldoffBatcher<Msg*> b(100, 8);
  Msg a{1}, c{1};
  b.offer(1, &a, 0, merge_up_to_10);
  const auto o = b.offer(2, &c, 10, merge_up_to_10);
  ASSERT_TRUE(o.send);
  EXPECT_EQ(*o.send, &c);
}

TEST(HoldoffBatcher, AFullBatchLeavesAtOnceAndItsTimerFindsNothing) {
  HoldoffBatcher<Msg*> b(100, 3);
  Msg a{1}, m1{1}, m2{1}, m3{1};
  b.offer(7, &a, 0, merge_up_to_10);
  b.offer(7, &m1, 10, merge_up_to_10);
  EXPECT_FALSE(b.offer(7, &m2, 20, merge_up_to_10).send);
  const auto o = b.offer(7, &m3, 30, merge_up_to_10);  // the third message fills the batch
  ASSERT_TRUE(o.send);
  EXPECT_EQ(*o.send, &m1);
  EXPECT_EQ(m1.units, 3);
  EXPECT_FALSE(b.take_due(7, 100));
}

TEST(HoldoffBatcher, ARefusedMergeSendsTheBatchAndOpensTheNext) {
  HoldoffBatcher<Msg*> b(100, 8);
  Msg a{1}, big{6}, bigger{6};
  b.offer(7, &a, 0, merge_up_to_10);
  b.offer(7, &big, 10, merge_up_to_10);
  const auto o = b.offer(7, &bigger, 20, merge_up_to_10);  // 6 + 6 > 10
  ASSERT_TRUE(o.send);
  EXPECT_EQ(*o.send, &big);
  ASSERT_TRUE(o.due);
  EXPECT_EQ(*o.due, 120);
  EXPECT_EQ(*b.take_due(7, 120), &bigger);
}

TEST(HoldoffBatcher, ZeroHoldoffOrBatchOfOneNeverHolds) {
  for (const auto& [holdoff, batch] : {std::pair<Picos, uint32_t>{0, 8}, {100, 1}}) {
    HoldoffBatcher<Msg*> b(holdoff, batch);
    Msg a{1}, c{1};
    b.offer(7, &a, 0, merge_up_to_10);
    const auto o = b.offer(7, &c, 0, merge_up_to_10);
    ASSERT_TRUE(o.send);
    EXPECT_EQ(*o.send, &c);
  }
}

}  // namespace
}  // namespace fabric
