// LinkCensus: link messages counted by kind, per worker, summed.
#include <gtest/gtest.h>

#include <string>

#include "model/link/link_census.h"
#include "model/protocol/payload_pool.h"

namespace fabric {
namespace {

TEST(LinkCensus, CountsEachKindApartAndSumsTheWorkers) {
  LinkCensus::reset();
  PayloadPool pool;
  Payload& frame = pool.acquire(MessageKind::frame, 1522);
  Payload& packet = pool.acquire(MessageKind::packet, 256);
  Payload& credit = pool.acquire(MessageKind::control, 16);
  control_of(credit).kind = ControlKind::credit;
  Payload& link_ack = pool.acquire(MessageKind::control, 16);
  control_of(link_ack).kind = ControlKind::link_ack;

  LinkCensus::count(frame);
  LinkCensus::count(packet);
  LinkCensus::count(packet);
  LinkCensus::count(credit);
  Worker::set_index(3);  // a second worker thread counts into its own shelf
  LinkCensus::count(packet);
  LinkCensus::count(link_ack);
  Worker::set_index(0);

  const LinkCensus::Counts n = LinkCensus::totals();
  EXPECT_EQ(n[LinkCensus::kind_of(frame)], 1u);
  EXPECT_EQ(n[LinkCensus::kind_of(packet)], 3u);
  EXPECT_EQ(n[LinkCensus::kind_of(credit)], 1u);
  EXPECT_EQ(n[LinkCensus::kind_of(link_ack)], 1u);
  EXPECT_EQ(std::string(LinkCensus::name(LinkCensus::kind_of(frame))), "frame");
  EXPECT_EQ(std::string(LinkCensus::name(LinkCensus::kind_of(packet))), "packet");
  EXPECT_EQ(std::string(LinkCensus::name(LinkCensus::kind_of(credit))), "credit");
  EXPECT_EQ(std::string(LinkCensus::name(LinkCensus::kind_of(link_ack))), "link_ack");
  EXPECT_EQ(std::string(LinkCensus::name(LinkCensus::kKinds - 1)), "link_nak");

  LinkCensus::reset();
  for (uint64_t c : LinkCensus::totals()) EXPECT_EQ(c, 0u);
  for (Payload* p : {&frame, &packet, &credit, &link_ack}) p->release();
}

}  // namespace
}  // namespace fabric
