// The fabric protocol's message: two cache lines from the pool, the fields
// each hop reads first in the first line.
#include <gtest/gtest.h>

#include <cstdint>

#include "model/protocol/payload_pool.h"

namespace fabric {
namespace {

// The line of `field` within its message, and the line its last byte is in.
template <class Field>
std::pair<long, long> lines_of(const Payload& m, const Field& field) {
  const auto at = reinterpret_cast<const char*>(&field) - reinterpret_cast<const char*>(&m);
  return {at / 64, (at + static_cast<long>(sizeof(Field)) - 1) / 64};
}

TEST(MessageLayout, EveryMessageIsOneAlignedPairOfLines) {
  PayloadPool pool;
  for (int i = 0; i < 600; ++i) {  // more than one block of the pool
    Payload& m = pool.acquire(MessageKind::packet, 256);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(&m) % 128, 0u);
  }
  EXPECT_EQ(sizeof(Payload), 128u);
}

TEST(MessageLayout, WhatEachHopReadsFirstIsInTheFirstLine) {
  PayloadPool pool;
  Payload& m = pool.acquire(MessageKind::packet, 256);
  const std::pair<long, long> first{0, 0};
  EXPECT_EQ(lines_of(m, m.refs_), first);
  EXPECT_EQ(lines_of(m, m.info), first);  // kind, wire bytes, ready time, credits, link sequence
  // A spine routes a packet by its target leaf; an egress reads its target and segment.
  EXPECT_EQ(lines_of(m, packet_of(m).target_leaf), first);
  EXPECT_EQ(lines_of(m, packet_of(m).target), first);
  EXPECT_EQ(lines_of(m, packet_of(m).vl), first);
  EXPECT_EQ(lines_of(m, packet_of(m).index), first);
  EXPECT_EQ(lines_of(m, packet_of(m).count), first);
  m.release();
  Payload& c = pool.acquire(MessageKind::control, 16);
  // Every control message: kind, destination, VL, units and count (a link
  // ACK, a credit, a request or a grant needs no second line).
  EXPECT_EQ(lines_of(c, control_of(c).kind), first);
  EXPECT_EQ(lines_of(c, control_of(c).to_leaf), first);
  EXPECT_EQ(lines_of(c, control_of(c).to), first);
  EXPECT_EQ(lines_of(c, control_of(c).from), first);
  EXPECT_EQ(lines_of(c, control_of(c).vl), first);
  EXPECT_EQ(lines_of(c, control_of(c).units), first);
  EXPECT_EQ(lines_of(c, control_of(c).count), first);
  c.release();
}

TEST(MessageLayout, ACloneCarriesEveryPart) {
  PayloadPool pool;
  Payload& m = pool.acquire(MessageKind::packet, 256);
  info_of(m).link_seq = 7;
  info_of(m).credits = 3;
  packet_of(m).frame = FrameId(42);
  packet_of(m).copy_seq = 9;
  packet_of(m).transport_seq = 11;
  m.set_address(5);
  Payload& c = pool.clone(m);
  EXPECT_NE(&c, &m);
  EXPECT_EQ(c.ref_count(), 1u);
  EXPECT_EQ(info_of(c).kind, MessageKind::packet);
  EXPECT_EQ(info_of(c).wire_bytes, 256u);
  EXPECT_EQ(info_of(c).link_seq, 7u);
  EXPECT_EQ(info_of(c).credits, 3u);
  EXPECT_EQ(packet_of(c).frame, FrameId(42));
  EXPECT_EQ(packet_of(c).copy_seq, 9u);
  EXPECT_EQ(packet_of(c).transport_seq, 11u);
  EXPECT_EQ(c.get_address(), 5u);
  EXPECT_EQ(pool.in_use(), 2u);
  c.release();
  m.release();
  EXPECT_EQ(pool.in_use(), 0u);
}

}  // namespace
}  // namespace fabric
