// Segmentation of frames into 256 B fabric packets, and egress reassembly of
// sprayed packets into copies, released strictly in copy_seq order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "model/leaf/reorder_buffer.h"
#include "model/leaf/segmentation.h"

namespace fabric {
namespace {

TEST(Segmentation, EveryFrameSizeSplitsIntoPacketsThatSumToTheFrame) {
  for (uint32_t bytes = 64; bytes <= 9216; ++bytes) {
    const uint16_t n = segment_count(bytes, 256);
    ASSERT_EQ(n, (bytes + 255) / 256) << bytes;
    uint32_t sum = 0;
    for (uint16_t i = 0; i < n; ++i) {
      const uint32_t s = segment_bytes(bytes, 256, i);
      ASSERT_GT(s, 0u) << bytes << " segment " << i;
      ASSERT_LE(s, 256u) << bytes << " segment " << i;
      if (i + 1 < n) {
        ASSERT_EQ(s, 256u) << bytes << " segment " << i;
      }
      sum += s;
    }
    ASSERT_EQ(sum, bytes);
  }
}

TEST(Segmentation, SmallPacketSizeAlsoSumsToTheFrame) {
  for (uint32_t packet : {64u, 100u, 4096u}) {
    for (uint32_t bytes = 64; bytes <= 9216; bytes += 7) {
      const uint16_t n = segment_count(bytes, packet);
      uint32_t sum = 0;
      for (uint16_t i = 0; i < n; ++i) sum += segment_bytes(bytes, packet, i);
      ASSERT_EQ(sum, bytes) << bytes << " / " << packet;
      ASSERT_LE(static_cast<uint32_t>(n - 1) * packet, bytes - 1) << "one segment too many";
    }
  }
}

TEST(Segmentation, SpecExamples) {
  EXPECT_EQ(segment_count(1522, 256), 6);
  for (uint16_t i = 0; i < 5; ++i) EXPECT_EQ(segment_bytes(1522, 256, i), 256u);
  EXPECT_EQ(segment_bytes(1522, 256, 5), 242u);
  EXPECT_EQ(segment_count(64, 256), 1);
  EXPECT_EQ(segment_bytes(64, 256, 0), 64u);
  EXPECT_EQ(segment_count(256, 256), 1);
  EXPECT_EQ(segment_count(257, 256), 2);
  EXPECT_EQ(segment_bytes(257, 256, 1), 1u);
  EXPECT_EQ(segment_count(9216, 256), 36);
}

TEST(Segmentation, CrossbarCycles) {
  EXPECT_EQ(crossbar_cycles(256, 36), 8u);
  EXPECT_EQ(crossbar_cycles(36, 36), 1u);
  EXPECT_EQ(crossbar_cycles(37, 36), 2u);
  EXPECT_EQ(crossbar_cycles(242, 36), 7u);
  EXPECT_EQ(crossbar_cycles(10, 36), 1u);
}

CopyMeta meta_of(uint32_t seq, uint32_t bytes) {
  CopyMeta m;
  m.frame = FrameId(1000 + seq);
  m.flow = FlowId(seq % 3);
  m.src = PortId(4);
  m.bytes = bytes;
  m.priority = 2;
  m.created = 10 * seq;
  m.segments = segment_count(bytes, 256);
  return m;
}

struct Pkt {
  uint32_t seq;
  uint16_t index;
  Picos entered;
};

void check_reassembly(uint32_t seed, uint32_t copies) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> size(64, 9216);
  std::uniform_int_distribution<Picos> when(0, 1'000'000);
  std::vector<CopyMeta> metas;
  std::vector<Picos> last_entry(copies, 0);
  std::vector<Pkt> pkts;
  for (uint32_t s = 0; s < copies; ++s) {
    metas.push_back(meta_of(s, size(rng)));
    for (uint16_t i = 0; i < metas[s].segments; ++i) {
      const Picos t = when(rng);
      pkts.push_back({s, i, t});
      last_entry[s] = std::max(last_entry[s], t);
    }
  }
  std::shuffle(pkts.begin(), pkts.end(), rng);

  ReorderBuffer rb;
  std::vector<uint16_t> received(copies, 0);
  uint32_t complete_prefix = 0;  // copies 0..prefix-1 are complete
  uint32_t next_pop = 0;
  for (size_t k = 0; k < pkts.size(); ++k) {
    const Pkt& p = pkts[k];
    const bool became = rb.on_packet(p.seq, p.index, metas[p.seq], p.entered);
    ++received[p.seq];
    const uint32_t before = complete_prefix;
    while (complete_prefix < copies && received[complete_prefix] == metas[complete_prefix].segments) ++complete_prefix;
    ASSERT_EQ(became, complete_prefix > before) << "packet " << k;
    ASSERT_EQ(rb.expected_seq(), complete_prefix);
    ASSERT_EQ(rb.ready_copies(), complete_prefix - next_pop);
    // Drain now and then, so popping interleaves with arrivals.
    if (k % 5 == 0) {
      while (rb.has_ready()) {
        const auto c = rb.pop();
        ASSERT_EQ(c.meta.frame, metas[next_pop].frame) << "out of copy_seq order";
        ASSERT_EQ(c.meta.bytes, metas[next_pop].bytes);
        ASSERT_EQ(c.meta.segments, metas[next_pop].segments);
        ASSERT_EQ(c.meta.created, metas[next_pop].created);
        ASSERT_EQ(c.ready_at, last_entry[next_pop]) << "copy " << next_pop;
        ++next_pop;
      }
    }
  }
  while (rb.has_ready()) {
    const auto c = rb.pop();
    ASSERT_EQ(c.meta.frame, metas[next_pop].frame);
    ASSERT_EQ(c.ready_at, last_entry[next_pop]);
    ++next_pop;
  }
  EXPECT_EQ(next_pop, copies);
  EXPECT_EQ(rb.partial_copies(), 0u);
  EXPECT_EQ(rb.ready_copies(), 0u);
  EXPECT_EQ(rb.expected_seq(), copies);
}

TEST(ReorderBuffer, RandomPermutedArrivalsReassembleInCopySeqOrder) {
  for (uint32_t seed : {1u, 2u, 3u, 42u, 2024u}) {
    SCOPED_TRACE(seed);
    check_reassembly(seed, 150);
  }
}

TEST(ReorderBuffer, LaterCopyWaitsForEarlierOne) {
  ReorderBuffer rb;
  const CopyMeta a = meta_of(0, 600);  // 3 packets
  const CopyMeta b = meta_of(1, 100);  // 1 packet
  EXPECT_FALSE(rb.on_packet(1, 0, b, 50));
  EXPECT_FALSE(rb.has_ready());
  EXPECT_EQ(rb.partial_copies(), 2u);
  EXPECT_FALSE(rb.on_packet(0, 2, a, 30));
  EXPECT_FALSE(rb.on_packet(0, 0, a, 70));
  EXPECT_TRUE(rb.on_packet(0, 1, a, 20));
  ASSERT_EQ(rb.ready_copies(), 2u);
  EXPECT_EQ(rb.partial_copies(), 0u);
  auto c0 = rb.pop();
  EXPECT_EQ(c0.meta.frame, a.frame);
  EXPECT_EQ(c0.ready_at, 70);
  auto c1 = rb.pop();
  EXPECT_EQ(c1.meta.frame, b.frame);
  EXPECT_EQ(c1.ready_at, 50);
  EXPECT_EQ(rb.expected_seq(), 2u);
}

TEST(ReorderBuffer, DuplicatePacketThrows) {
  ReorderBuffer rb;
  const CopyMeta m = meta_of(0, 1522);
  rb.on_packet(0, 3, m, 1);
  EXPECT_THROW(rb.on_packet(0, 3, m, 2), std::logic_error);
  for (uint16_t i : {0, 1, 2, 4}) EXPECT_FALSE(rb.on_packet(0, i, m, 3));
  EXPECT_TRUE(rb.on_packet(0, 5, m, 4));
  EXPECT_EQ(rb.pop().ready_at, 4);
}

TEST(ReorderBuffer, DuplicateOfLastJumboSegmentThrows) {
  ReorderBuffer rb;
  const CopyMeta m = meta_of(0, 9216);  // 36 segments
  rb.on_packet(0, 35, m, 1);
  EXPECT_THROW(rb.on_packet(0, 35, m, 1), std::logic_error);
}

TEST(ReorderBuffer, DuplicateBeyondSegment64Throws) {
  ReorderBuffer rb;
  CopyMeta m = meta_of(0, 9216);
  m.segments = segment_count(9216, 64);
  ASSERT_EQ(m.segments, 144);
  rb.on_packet(0, 100, m, 1);
  EXPECT_THROW(rb.on_packet(0, 100, m, 1), std::logic_error);
}

TEST(ReorderBuffer, IndexBeyondCountThrows) {
  ReorderBuffer rb;
  const CopyMeta m = meta_of(0, 1522);  // indices 0..5
  EXPECT_THROW(rb.on_packet(0, 6, m, 0), std::logic_error);
  EXPECT_THROW(rb.on_packet(0, 1000, m, 0), std::logic_error);
  for (uint16_t i = 0; i < 5; ++i) EXPECT_FALSE(rb.on_packet(0, i, m, 0));
  EXPECT_TRUE(rb.on_packet(0, 5, m, 0));
  EXPECT_EQ(rb.ready_copies(), 1u);
}

TEST(ReorderBuffer, PacketOfForwardedCopyThrows) {
  ReorderBuffer rb;
  const CopyMeta m = meta_of(0, 64);
  EXPECT_TRUE(rb.on_packet(0, 0, m, 5));
  EXPECT_THROW(rb.on_packet(0, 0, m, 6), std::logic_error);
}

TEST(ReorderBuffer, SingleSegmentCopiesInOrderAreImmediatelyReady) {
  ReorderBuffer rb;
  for (uint32_t s = 0; s < 100; ++s) {
    EXPECT_TRUE(rb.on_packet(s, 0, meta_of(s, 200), s * 3));
    ASSERT_TRUE(rb.has_ready());
    EXPECT_EQ(rb.front().meta.frame, FrameId(1000 + s));
    EXPECT_EQ(rb.pop().ready_at, static_cast<Picos>(s * 3));
  }
  EXPECT_EQ(rb.expected_seq(), 100u);
}

}  // namespace
}  // namespace fabric
