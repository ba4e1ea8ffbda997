// CopyStreams: a port's multicast copy streams, with the payload and header
// round-robin turns, and streams ending on their last packet.
#include <gtest/gtest.h>

#include "model/leaf/copy_streams.h"

namespace fabric {
namespace {

CopyStream stream(uint32_t voq, uint16_t segments) { return {voq, /*slot=*/voq * 10, /*copy_seq=*/0, 0, segments, 0}; }

TEST(CopyStreams, AdvanceEndsAStreamOnItsLastPacketAndNamesItsVoq) {
  CopyStreams streams;
  streams.start(stream(7, 3));
  EXPECT_FALSE(streams.advance(0, 100).has_value());
  EXPECT_EQ(streams[0].next_segment, 1);
  EXPECT_EQ(streams[0].busy_until, 100);
  EXPECT_FALSE(streams.advance(0, 200).has_value());
  const std::optional<uint32_t> done = streams.advance(0, 300);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(*done, 7u);
  EXPECT_TRUE(streams.empty());
}

TEST(CopyStreams, TurnsStartAfterTheStreamServedLast) {
  CopyStreams streams;
  for (uint32_t v = 0; v < 3; ++v) streams.start(stream(v, 4));
  EXPECT_EQ(streams.in_payload_turn(0), 0u);
  streams.served_payload(1);
  EXPECT_EQ(streams.in_payload_turn(0), 2u);
  EXPECT_EQ(streams.in_payload_turn(1), 0u);
  EXPECT_EQ(streams.in_payload_turn(2), 1u);
  // The header turn is its own.
  EXPECT_EQ(streams.in_header_turn(0), 0u);
  streams.served_header(2);
  EXPECT_EQ(streams.in_header_turn(0), 0u);
  EXPECT_EQ(streams.in_header_turn(1), 1u);
}

TEST(CopyStreams, RoundRobinServesEveryStreamInTurn) {
  CopyStreams streams;
  for (uint32_t v = 0; v < 4; ++v) streams.start(stream(v, 100));
  std::vector<uint32_t> served;
  for (int i = 0; i < 8; ++i) {
    const size_t s = streams.in_payload_turn(0);
    served.push_back(streams[s].voq);
    streams.served_payload(s);
    streams.advance(s, i);
  }
  EXPECT_EQ(served, (std::vector<uint32_t>{0, 1, 2, 3, 0, 1, 2, 3}));
}

TEST(CopyStreams, ATurnPastTheEndWrapsWhenAStreamEnds) {
  CopyStreams streams;
  streams.start(stream(0, 5));
  streams.start(stream(1, 1));
  streams.served_payload(1);                        // next turn: index 2, past the end after the erase
  ASSERT_TRUE(streams.advance(1, 10).has_value());  // stream 1 ends
  ASSERT_EQ(streams.size(), 1u);
  EXPECT_EQ(streams.in_payload_turn(0), 0u);
  EXPECT_EQ(streams[streams.in_payload_turn(0)].voq, 0u);
}

}  // namespace
}  // namespace fabric
