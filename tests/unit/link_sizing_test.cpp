// What a link's round trip decides (model/link/link_sizing.h), by hand: the
// default 40 m leaf-spine link and a 400 m one.
#include "model/link/link_sizing.h"

#include <gtest/gtest.h>

namespace fabric {
namespace {

LinkTiming leaf_spine(Picos propagation) {
  LinkTiming link;
  link.rate_gbps = 25;
  link.propagation = propagation;
  link.largest_message_bytes = 256;
  link.control_bytes = 10;
  return link;
}

TEST(LinkSizing, SerializationAtTheLinkRate) {
  EXPECT_DOUBLE_EQ(serialization_ps(256, 25), 81'920);
  EXPECT_DOUBLE_EQ(serialization_ps(10, 25), 3'200);
  EXPECT_DOUBLE_EQ(bytes_in(81'920, 25), 256);
}

TEST(LinkSizing, TheLinkAckRoundTripOfA40mLink) {
  // 2 x 200 ns of flight, a 256 B message each way, 500 ns of ACK coalescing, a 10 B ACK.
  const double rtt = 400'000 + 2 * 81'920 + 500'000 + 3'200;
  EXPECT_DOUBLE_EQ(link_ack_round_trip_ps(leaf_spine(200'000), 500'000), rtt);
  EXPECT_DOUBLE_EQ(retry_buffer_need_bytes(leaf_spine(200'000), 500'000), rtt * 25 / 8000 + 256);
  // The spec's values hold it with the margin: 2 us and 6 KB.
  EXPECT_LT(kSizingMargin * rtt, 2'000'000);
  EXPECT_LT(kSizingMargin * retry_buffer_need_bytes(leaf_spine(200'000), 500'000), 6144);
}

TEST(LinkSizing, TheLinkAckRoundTripGrowsWithTheCable) {
  const double rtt = 4'000'000 + 2 * 81'920 + 500'000 + 3'200;  // 400 m: 4.667 us
  EXPECT_DOUBLE_EQ(link_ack_round_trip_ps(leaf_spine(2'000'000), 500'000), rtt);
  EXPECT_GT(rtt, 2'000'000);  // the spec's 2 us timeout would replay every message
}

TEST(LinkSizing, TheCreditWindowIsTheBandwidthDelayProductInPackets) {
  // 40 m, a spine: 2 x 200 ns, a packet each way, 44 ns through the spine, 100 ns credit delay, a credit.
  const double rtt = 400'000 + 2 * 81'920 + 44'000 + 100'000 + 3'200;
  EXPECT_DOUBLE_EQ(credit_round_trip_ps(leaf_spine(200'000), 44'000, 100'000), rtt);
  EXPECT_DOUBLE_EQ(credit_window_need_packets(leaf_spine(200'000), 44'000, 100'000), rtt * 25 / 8000 / 256);
  EXPECT_LT(kSizingMargin * credit_window_need_packets(leaf_spine(200'000), 44'000, 100'000), 16);  // the spec's 16
  // 400 m: 52.6 packets, so 16 carry 16 / 52.6 of the link.
  EXPECT_NEAR(credit_window_need_packets(leaf_spine(2'000'000), 44'000, 100'000), 52.6, 0.05);
}

}  // namespace
}  // namespace fabric
