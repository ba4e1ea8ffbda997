// The VOQ drop policies (mechanism 4, step 3), one file each behind
// VoqDropPolicy: at Vth and above, tail drop rejects the arriving copy and
// drop from head admits it and drops the next-to-send one; below Vth both
// admit; `off` admits at any backlog.
#include <gtest/gtest.h>

#include "model/leaf/voq_drop_policy.h"

namespace fabric {
namespace {

TEST(VoqDropPolicy, EachPolicyDecidesAtVth) {
  const auto off = VoqDropPolicy::make(VoqDropPolicy::Kind::off, 12);
  const auto tail = VoqDropPolicy::make(VoqDropPolicy::Kind::tail, 12);
  const auto head = VoqDropPolicy::make(VoqDropPolicy::Kind::head, 12);
  for (uint32_t waiting : {0u, 11u}) {
    EXPECT_EQ(off->on_arrival(waiting), VoqDropDecision::admit) << waiting;
    EXPECT_EQ(tail->on_arrival(waiting), VoqDropDecision::admit) << waiting;
    EXPECT_EQ(head->on_arrival(waiting), VoqDropDecision::admit) << waiting;
  }
  for (uint32_t waiting : {12u, 13u, 1000000u}) {
    EXPECT_EQ(off->on_arrival(waiting), VoqDropDecision::admit) << waiting;
    EXPECT_EQ(tail->on_arrival(waiting), VoqDropDecision::drop_arriving) << waiting;
    EXPECT_EQ(head->on_arrival(waiting), VoqDropDecision::drop_head) << waiting;
  }
}

TEST(VoqDropPolicy, AThresholdOfZeroActsOnEveryCopy) {
  EXPECT_EQ(VoqDropPolicy::make(VoqDropPolicy::Kind::tail, 0)->on_arrival(0), VoqDropDecision::drop_arriving);
  EXPECT_EQ(VoqDropPolicy::make(VoqDropPolicy::Kind::head, 0)->on_arrival(0), VoqDropDecision::drop_head);
}

}  // namespace
}  // namespace fabric
