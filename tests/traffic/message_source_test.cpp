// MessageSource: a closed-loop application's frames. Each message goes to
// one destination drawn per message (uniformly over the flow's), as frames
// of at most 1500 B of payload plus 18 B; without a message size every
// frame is its own message. Seeded: the same seed, the same frames.
#include <gtest/gtest.h>

#include <map>

#include "traffic/message_source.h"

namespace fabric::traffic {
namespace {

FlowSpec flow_with_message(const std::string& message) {
  FlowSpec f;
  f.id = FlowId(3);
  f.src = PortId(0);
  f.dests = {PortId(1), PortId(2), PortId(3)};
  f.closed_loop = true;
  if (!message.empty()) f.message = MessageSizeDistribution::parse("flow.w.message", message);
  return f;
}

TEST(MessageSource, EveryFrameOfAMessageGoesToItsOneDestination) {
  const FlowSpec f = flow_with_message("4000");  // 1518, 1518, 1018 B
  MessageSource source(f, 7);
  std::map<uint32_t, int> messages_to;
  for (int m = 0; m < 3000; ++m) {
    ASSERT_TRUE(source.next().first_of_message);
    const PortId dst = source.next().dst;
    ++messages_to[raw(dst)];
    const uint32_t sizes[] = {1518, 1518, 1018};
    for (uint32_t size : sizes) {
      EXPECT_EQ(source.next().bytes, size);
      EXPECT_EQ(source.next().dst, dst);
      source.take();
    }
  }
  EXPECT_EQ(source.messages(), 3001u);  // the next one is drawn
  ASSERT_EQ(messages_to.size(), 3u);
  for (const auto& [dst, n] : messages_to) EXPECT_NEAR(n, 1000, 100) << dst;  // ~5 sigma
}

TEST(MessageSource, WithoutAMessageSizeEachFrameIsAMessage) {
  FlowSpec f = flow_with_message("");
  f.size = FrameSizeDistribution::parse("flow.w.frame_size", "512");
  MessageSource source(f, 7);
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(source.next().first_of_message);
    EXPECT_EQ(source.next().bytes, 512u);
    source.take();
  }
  EXPECT_EQ(source.messages(), 11u);
}

TEST(MessageSource, SameSeedSameFrames) {
  const FlowSpec f = flow_with_message("exp:48:7KB:85KB");
  MessageSource a(f, 11), b(f, 11), c(f, 12);
  int differ = 0;
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(a.next().bytes, b.next().bytes);
    EXPECT_EQ(a.next().dst, b.next().dst);
    differ += a.next().bytes != c.next().bytes || a.next().dst != c.next().dst;
    a.take();
    b.take();
    c.take();
  }
  EXPECT_GT(differ, 100);
}

}  // namespace
}  // namespace fabric::traffic
