// RetransmitTimers: one timer per copy, due a fixed timeout after it was
// armed, expired oldest first; a copy still outstanding is armed again from
// the expiry. And the egress side: a packet that arrived before is known as
// a duplicate.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "model/leaf/reorder_buffer.h"
#include "model/leaf/retransmit_timers.h"

namespace fabric {
namespace {

TEST(RetransmitTimers, ExpireInArmingOrderAndRearmWhatIsOutstanding) {
  RetransmitTimers t(1000);
  EXPECT_TRUE(t.arm(0, 1, 7, 0));   // the first timer: the owner must wake
  EXPECT_FALSE(t.arm(10, 1, 7, 1));
  EXPECT_FALSE(t.arm(20, 2, 3, 0));
  EXPECT_EQ(t.next_due(), 1000);
  std::vector<std::tuple<int, uint32_t, uint32_t>> seen;
  t.expire(999, [&](int p, uint32_t v, uint32_t s) { seen.emplace_back(p, v, s); return true; });
  EXPECT_TRUE(seen.empty());
  // At 1010: copies (1,7,0) and (1,7,1) are due; the first is still
  // outstanding (armed again from 1010), the second was acknowledged.
  t.expire(1010, [&](int p, uint32_t v, uint32_t s) {
    seen.emplace_back(p, v, s);
    return s == 0;
  });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], std::make_tuple(1, 7u, 0u));
  EXPECT_EQ(seen[1], std::make_tuple(1, 7u, 1u));
  EXPECT_EQ(t.next_due(), 1020);  // (2,3,0)
  seen.clear();
  t.expire(2010, [&](int p, uint32_t v, uint32_t s) { seen.emplace_back(p, v, s); return false; });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], std::make_tuple(2, 3u, 0u));
  EXPECT_EQ(seen[1], std::make_tuple(1, 7u, 0u));  // re-armed at 1010, due 2010
  EXPECT_TRUE(t.empty());
}

TEST(ReorderBuffer, KnowsThePacketsThatArrivedBefore) {
  ReorderBuffer rb;
  CopyMeta m;
  m.segments = 2;
  EXPECT_FALSE(rb.has_packet(0, 0));
  rb.on_packet(0, 1, m, 10);
  EXPECT_TRUE(rb.has_packet(0, 1));
  EXPECT_FALSE(rb.has_packet(0, 0));
  EXPECT_FALSE(rb.has_packet(1, 1));
  rb.on_packet(0, 0, m, 20);  // copy 0 complete
  EXPECT_TRUE(rb.has_packet(0, 0));
  EXPECT_TRUE(rb.has_packet(0, 1));
  EXPECT_FALSE(rb.has_packet(1, 0));
}

}  // namespace
}  // namespace fabric
