// try_coalesce: merging queued control messages of the same VOQ.
#include <gtest/gtest.h>

#include "model/protocol/fabric_protocol.h"

namespace fabric {
namespace {

constexpr uint32_t kMax = 36;

// Requests and grants name their copies: `first` and on, one per frame.
ControlMessage msg(ControlKind kind, uint32_t units, uint32_t count = 1, uint32_t from = 1, uint32_t to = 2,
                   uint8_t vl = 4, uint32_t first = 0) {
  ControlMessage m;
  m.copies = {first, first + count - 1};
  m.kind = kind;
  m.from = PortId(from);
  m.to = PortId(to);
  m.to_leaf = LeafId(0);
  m.vl = Vl(vl);
  m.units = units;
  m.count = count;
  return m;
}

TEST(CreditCoalesce, GrantsOfTheSameVoqMerge) {
  ControlMessage q = msg(ControlKind::grant, 30, 2);
  EXPECT_TRUE(try_coalesce(q, msg(ControlKind::grant, 30, 3, 1, 2, 4, 2), kMax));
  EXPECT_EQ(q.units, 60u);  // grants are not bounded by max_request_units
  EXPECT_EQ(q.count, 5u);
  EXPECT_EQ(q.kind, ControlKind::grant);
  EXPECT_EQ(q.from, PortId(1));
  EXPECT_EQ(q.to, PortId(2));
}

// An ACK's units are cumulative (all copies below that sequence number are
// done): merged ACKs keep the highest, even when a repeated lower one comes last.
TEST(CreditCoalesce, AcksOfTheSameVoqMerge) {
  ControlMessage q = msg(ControlKind::ack, 1, 1);
  for (uint32_t i = 2; i <= 100; ++i) ASSERT_TRUE(try_coalesce(q, msg(ControlKind::ack, i, 1), kMax));
  EXPECT_EQ(q.count, 100u);
  EXPECT_EQ(q.units, 100u);
  ASSERT_TRUE(try_coalesce(q, msg(ControlKind::ack, 40, 1), kMax));
  EXPECT_EQ(q.units, 100u);
}

TEST(CreditCoalesce, RequestsMergeUpToMaxRequestUnits) {
  ControlMessage q = msg(ControlKind::request, 6, 1);
  EXPECT_TRUE(try_coalesce(q, msg(ControlKind::request, 6, 1, 1, 2, 4, 1), kMax));
  EXPECT_EQ(q.units, 12u);
  EXPECT_EQ(q.count, 2u);
  EXPECT_TRUE(try_coalesce(q, msg(ControlKind::request, 24, 4, 1, 2, 4, 2), kMax));  // exactly 36
  EXPECT_EQ(q.units, 36u);
  EXPECT_EQ(q.count, 6u);
  EXPECT_FALSE(try_coalesce(q, msg(ControlKind::request, 1, 1, 1, 2, 4, 6), kMax));
  EXPECT_EQ(q.units, 36u) << "a refused merge must leave the queued message unchanged";
  EXPECT_EQ(q.count, 6u);
}

TEST(CreditCoalesce, RequestOverTheLimitIsRefused) {
  ControlMessage q = msg(ControlKind::request, 30, 1);
  EXPECT_FALSE(try_coalesce(q, msg(ControlKind::request, 7, 1, 1, 2, 4, 1), kMax));
  EXPECT_EQ(q.units, 30u);
  EXPECT_EQ(q.count, 1u);
  EXPECT_TRUE(try_coalesce(q, msg(ControlKind::request, 6, 1, 1, 2, 4, 1), kMax));
  EXPECT_EQ(q.units, 36u);
}

TEST(CreditCoalesce, RandomRequestsNeverExceedTheLimit) {
  ControlMessage q = msg(ControlKind::request, 1, 1);
  uint32_t total = 1, frames = 1, merged_units = 1, msgs = 1;
  for (uint32_t k = 0; k < 500; ++k) {
    const uint32_t u = 1 + (k * 7) % 36;
    total += u;
    ++frames;
    if (try_coalesce(q, msg(ControlKind::request, u, 1, 1, 2, 4, k + 1), kMax)) {
      merged_units += u;
    } else {
      ASSERT_GT(q.units + u, kMax);
      q = msg(ControlKind::request, u, 1, 1, 2, 4, k + 1);
      merged_units += u;
      ++msgs;
    }
    ASSERT_LE(q.units, kMax);
  }
  EXPECT_EQ(merged_units, total);
  EXPECT_LT(msgs, frames);
}

// A merged request or grant covers one run of copies: the source and the
// arbiter tell by it which copies a grant is for, or a withdrawal withdraws.
TEST(CreditCoalesce, OnlyARunOfCopiesMerges) {
  ControlMessage q = msg(ControlKind::request, 6, 1, 1, 2, 4, 5);
  EXPECT_FALSE(try_coalesce(q, msg(ControlKind::request, 6, 1, 1, 2, 4, 7), kMax)) << "copy 6 went another way";
  EXPECT_TRUE(try_coalesce(q, msg(ControlKind::request, 6, 1, 1, 2, 4, 6), kMax));
  EXPECT_EQ(q.copies.first, 5u);
  EXPECT_EQ(q.copies.last, 6u);
  ControlMessage g = msg(ControlKind::grant, 6, 1, 1, 2, 4, 3);
  EXPECT_FALSE(try_coalesce(g, msg(ControlKind::grant, 6, 1, 1, 2, 4, 2), kMax));
  ControlMessage shortfall = msg(ControlKind::grant, 6, 0);
  shortfall.withdraw = true;
  EXPECT_FALSE(try_coalesce(g, shortfall, kMax)) << "a shortfall notice is not a grant";
}

TEST(CreditCoalesce, WithdrawalsStayApartAndReleasesAddUp) {
  ControlMessage release = msg(ControlKind::cancel, 6, 1);
  EXPECT_TRUE(try_coalesce(release, msg(ControlKind::cancel, 6, 1), kMax));
  EXPECT_EQ(release.units, 12u);
  ControlMessage withdraw = msg(ControlKind::cancel, 6, 1);
  withdraw.withdraw = true;
  EXPECT_FALSE(try_coalesce(release, withdraw, kMax));
}

TEST(CreditCoalesce, DifferentKindsNeverMerge) {
  const ControlKind kinds[] = {ControlKind::request, ControlKind::grant, ControlKind::ack,
                               ControlKind::credit,  ControlKind::pause, ControlKind::cnm};
  for (ControlKind a : kinds)
    for (ControlKind b : kinds) {
      if (a == b) continue;
      ControlMessage q = msg(a, 1, 1);
      EXPECT_FALSE(try_coalesce(q, msg(b, 1, 1), kMax)) << to_string(a) << " + " << to_string(b);
      EXPECT_EQ(q.units, 1u);
      EXPECT_EQ(q.count, 1u);
      EXPECT_EQ(q.kind, a);
    }
}

TEST(CreditCoalesce, CreditPauseAndCnmNeverMerge) {
  for (ControlKind k : {ControlKind::credit, ControlKind::pause, ControlKind::cnm}) {
    ControlMessage q = msg(k, 1, 1);
    EXPECT_FALSE(try_coalesce(q, msg(k, 1, 1), kMax)) << to_string(k);
    EXPECT_EQ(q.count, 1u);
  }
}

TEST(CreditCoalesce, DifferentVoqsNeverMerge) {
  for (ControlKind k : {ControlKind::request, ControlKind::grant, ControlKind::ack}) {
    SCOPED_TRACE(to_string(k));
    ControlMessage q = msg(k, 2, 1, 1, 2, 4);
    EXPECT_FALSE(try_coalesce(q, msg(k, 2, 1, 3, 2, 4), kMax)) << "different from";
    EXPECT_FALSE(try_coalesce(q, msg(k, 2, 1, 1, 3, 4), kMax)) << "different to";
    EXPECT_FALSE(try_coalesce(q, msg(k, 2, 1, 1, 2, 5), kMax)) << "different vl";
    EXPECT_FALSE(try_coalesce(q, msg(k, 2, 1, 2, 1, 4), kMax)) << "reversed direction";
    EXPECT_EQ(q.units, 2u);
    EXPECT_EQ(q.count, 1u);
    EXPECT_TRUE(try_coalesce(q, msg(k, 2, 1, 1, 2, 4, 1), kMax));  // the next copy of the same VOQ
    EXPECT_EQ(q.count, 2u);
  }
}

}  // namespace
}  // namespace fabric
