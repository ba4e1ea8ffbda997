// QuickRing multicast's reservation protocol (E14) as plain C++: Lamport
// ordering; a ticket's map bits through members and bridges; retract of the
// lowest-priority holder only; circular shifting keeps the head highest;
// the adaptive limit's rules step by step; back-off delays; delivery in
// total order.
#include <gtest/gtest.h>

#include <cmath>

#include "model/ring/flow_control.h"
#include "model/ring/reservation.h"
#include "model/ring/sender_queue.h"
#include "model/ring/ticket_pacer.h"
#include "model/ring/total_order.h"

namespace fabric::ring {
namespace {

TEST(LamportClock, LocalEventsAdvanceAndSeenTimestampsPassThem) {
  LamportClock a, b;
  EXPECT_EQ(a.tick(), 1u);
  EXPECT_EQ(a.tick(), 2u);
  b.observe(a.now());  // b saw a's timestamp 2: its next event comes after it
  EXPECT_EQ(b.tick(), 3u);
  b.observe(1);  // an older timestamp changes nothing
  EXPECT_EQ(b.tick(), 4u);
  // Priorities: lower VTS first, then lower station.
  EXPECT_TRUE((Priority{3, 5} < Priority{4, 0}));
  EXPECT_TRUE((Priority{3, 1} < Priority{3, 2}));
  EXPECT_FALSE((Priority{3, 2} < Priority{3, 2}));
}

TEST(TicketMap, BitsClearAtMembersAndBridgesAndARetryCarriesTheRest) {
  // Members 2, 3, 4 and a bridge at station 6.
  TicketMap map({2, 3, 4, 6});
  std::vector<ReceiveBuffers> buffers(8, ReceiveBuffers(2));
  const Priority p{10, 1};
  buffers[3].on_ticket({5, 0});  // station 3 is full with higher priorities
  buffers[3].on_ticket({6, 0});
  for (int station : {2, 3, 4, 6}) {
    const TicketOutcome o = buffers[station].on_ticket(p);
    if (o.kind == TicketOutcome::Kind::reserved || o.kind == TicketOutcome::Kind::already_held) map.clear(station);
  }
  EXPECT_FALSE(map.all_clear());
  EXPECT_EQ(map.still_set(), (std::vector<int>{3}));  // the retry carries only 3's bit
  // Station 3 frees a buffer; the retry passes 2 and 4 again (their
  // reservations kept, no second buffer taken) and clears 3.
  buffers[3].release({5, 0});
  EXPECT_EQ(buffers[2].on_ticket(p).kind, TicketOutcome::Kind::already_held);
  EXPECT_EQ(buffers[2].free(), 1);
  EXPECT_EQ(buffers[3].on_ticket(p).kind, TicketOutcome::Kind::reserved);
  map.clear(3);
  EXPECT_TRUE(map.all_clear());
}

TEST(ReceiveBuffers, ARetractIsAskedOfTheLowestPriorityHolderOnlyAndOnlyIfLower) {
  ReceiveBuffers b(3);
  b.on_ticket({4, 1});
  b.on_ticket({9, 2});
  b.on_ticket({7, 3});
  EXPECT_EQ(b.free(), 0);
  // A higher-priority ticket: the lowest holder, (9, 2), is asked.
  TicketOutcome o = b.on_ticket({5, 0});
  EXPECT_EQ(o.kind, TicketOutcome::Kind::retract_request);
  EXPECT_EQ(o.victim, (Priority{9, 2}));
  // A ticket of lower priority than every holder asks nobody.
  EXPECT_EQ(b.on_ticket({10, 0}).kind, TicketOutcome::Kind::full);
  // A filled buffer is never retracted: with (9, 2) filled, (7, 3) is the one.
  b.fill({9, 2});
  o = b.on_ticket({5, 0});
  EXPECT_EQ(o.victim, (Priority{7, 3}));
  // The retract cancels it, and the ticket's retry gets the buffer.
  b.cancel({7, 3});
  EXPECT_EQ(b.on_ticket({5, 0}).kind, TicketOutcome::Kind::reserved);
  EXPECT_EQ(b.reserved(), 2);
  EXPECT_EQ(b.filled(), 1);
  // A retract of a packet already in changes nothing.
  b.cancel({9, 2});
  EXPECT_TRUE(b.holds({9, 2}));
}

// The adaptive limit's U_i: the distinct senders whose tickets hold this
// station's buffers, reserved or filled, not the tickets that passed by.
TEST(ReceiveBuffers, HoldersAreTheDistinctSendersHoldingABuffer) {
  ReceiveBuffers b(5);
  EXPECT_EQ(b.holders(), 0);
  b.on_ticket({4, 1});
  b.on_ticket({6, 1});
  b.on_ticket({5, 2});
  EXPECT_EQ(b.holders(), 2);
  b.fill({5, 2});
  EXPECT_EQ(b.holders(), 2);  // a filled buffer still holds its sender's ticket
  b.release({5, 2});
  b.cancel({4, 1});
  EXPECT_EQ(b.holders(), 1);
}

TEST(SenderQueue, CircularShiftingSendsTheHeadAndKeepsItHighest) {
  SenderQueue q;
  q.admit(100, 1);  // head
  q.admit(101, 2);
  q.admit(102, 3);
  q.admit(103, 4);
  // Packet 102 (VTS 3) completes first: the head goes in its buffers.
  const SenderQueue::Send s = q.complete(3);
  EXPECT_EQ(s.packet.id, 100u);
  EXPECT_EQ(s.buffers_vts, 3u);
  // 101 takes VTS 1 (and the head's partial reservations), 102 takes 2; 103
  // keeps 4. The new head has the highest priority of the queue.
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q[0].id, 101u);
  EXPECT_EQ(q[0].vts, 1u);
  EXPECT_EQ(q[1].id, 102u);
  EXPECT_EQ(q[1].vts, 2u);
  EXPECT_EQ(q[2].vts, 4u);
  // The head's own reservation completing sends it, with no shift.
  const SenderQueue::Send t = q.complete(1);
  EXPECT_EQ(t.packet.id, 101u);
  EXPECT_EQ(t.buffers_vts, 1u);
  EXPECT_EQ(q[0].vts, 2u);
}

TEST(AdaptiveLimit, TheRulesStepByStep) {
  const int B = 20, m = 5;
  AdaptiveLimit a(B, m);
  EXPECT_EQ(a.q(), 5);  // starts at B / (m - 1)
  a.observe(4, 3, 0);   // no more waiting than q allows: unchanged
  EXPECT_EQ(a.q(), 5);
  a.observe(30, 0, 0);  // alone: q = min(waiting, B)
  EXPECT_EQ(a.q(), 20);
  a.observe(30, 2, 0);  // several other senders: decrease while above B/(m-1)
  EXPECT_EQ(a.q(), 19);
  for (int i = 0; i < 30; ++i) a.observe(30, 3, 0);
  EXPECT_EQ(a.q(), 5);  // ... and no further
  AdaptiveLimit one(B, m);
  one.observe(30, 0, 0);
  EXPECT_EQ(one.q(), 20);
  one.observe(30, 1, 15);  // one other sender, occupancy above B/2: decrease while above B/2
  EXPECT_EQ(one.q(), 19);
  for (int i = 0; i < 30; ++i) one.observe(30, 1, 15);
  EXPECT_EQ(one.q(), 10);
  one.observe(30, 1, 5);  // occupancy at most B/2: q = min(waiting, B/2)
  EXPECT_EQ(one.q(), 10);
  one.observe(7, 1, 5);  // waiting below q: the rules do not apply
  EXPECT_EQ(one.q(), 10);
  one.on_failure();  // a failed attempt or a retract request: down one
  EXPECT_EQ(one.q(), 9);
  one.on_recovered_send();  // sending a packet that had failed: up one
  EXPECT_EQ(one.q(), 10);
  AdaptiveLimit low(B, m);
  for (int i = 0; i < 10; ++i) low.on_failure();
  EXPECT_EQ(low.q(), 1);  // never below one
}

TEST(Backoff, TheNthRetryWaitsD0TimesEToTheDnCappedAtTen) {
  const Backoff b(1'000'000, std::log(2.0));  // D0 = 1 us, d = ln 2: doubling
  EXPECT_EQ(b.delay(0), 1'000'000);
  EXPECT_EQ(b.delay(1), 2'000'000);
  EXPECT_EQ(b.delay(3), 8'000'000);
  EXPECT_EQ(b.delay(10), 1'024'000'000);
  EXPECT_EQ(b.delay(15), 1'024'000'000);  // capped at n = 10
}

TEST(TotalOrder, DeliversByOrderingTimestampOnceEveryOtherSenderIsPast) {
  TotalOrder order({1, 2, 3});
  order.arrived(5, 2, 500);
  order.arrived(4, 3, 400);
  EXPECT_FALSE(order.next());  // sender 1 has not been seen past 4
  order.seen(1, 6);
  EXPECT_EQ(order.next()->id, 400u);  // (4, 3): 1 seen at 6, 2 at 5
  EXPECT_FALSE(order.next());         // (5, 2): sender 3 seen only at 4
  order.seen(3, 7);
  EXPECT_EQ(order.next()->id, 500u);
  // Equal timestamps: the lower station first.
  order.arrived(9, 3, 930);
  order.arrived(9, 1, 910);
  order.seen(2, 10);
  order.seen(1, 10);
  order.seen(3, 10);
  EXPECT_EQ(order.next()->id, 910u);
  EXPECT_EQ(order.next()->id, 930u);
}

TEST(TotalOrder, ASenderSeenAtTheTimestampOrOneThatIsNotActiveBlocksNothing) {
  TotalOrder order({1, 2});
  order.arrived(5, 2, 500);
  EXPECT_FALSE(order.next());
  order.seen(1, 5);  // its next packet is stamped after 5
  const auto r = order.next();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->source, 2);
  EXPECT_EQ(r->ots, 5u);
  order.arrived(8, 2, 800);
  EXPECT_FALSE(order.next([](int) { return true; }));
  EXPECT_EQ(order.next([](int s) { return s != 1; })->id, 800u);  // 1 holds no reservation here
}

}  // namespace
}  // namespace fabric::ring

namespace fabric::ring {
namespace {

TEST(TicketPacer, WithoutFlowControlEveryTicketGoesAtOnce) {
  TicketPacer pacer({}, 1000);
  pacer.offer({3, 1}, 1, 0, false);
  pacer.offer({2, 1}, 4, 0, true);
  EXPECT_EQ(pacer.take_released(0), (std::vector<uint64_t>{3, 2}));
  EXPECT_EQ(pacer.next_release(), kNever);
}

TEST(TicketPacer, BackoffHoldsTheNthRetryD0TimesEToTheDn) {
  PacerParams p;
  p.backoff = true;
  p.backoff_d0 = 1000;
  p.backoff_d = std::log(2.0);
  TicketPacer pacer(p, 1'000'000);
  pacer.offer({5, 1}, 1, 0, false);  // a first attempt: no back-off
  pacer.offer({6, 1}, 3, 0, false);  // the second retry: 4 D0
  EXPECT_EQ(pacer.take_released(0), (std::vector<uint64_t>{5}));
  EXPECT_EQ(pacer.next_release(), 4000);
  EXPECT_TRUE(pacer.take_released(3999).empty());
  EXPECT_EQ(pacer.take_released(4000), (std::vector<uint64_t>{6}));
}

TEST(TicketPacer, DelayedRetryReleasesTheHighestPriorityOnePerPermit) {
  PacerParams p;
  p.delayed_retry = true;
  TicketPacer pacer(p, 1000);
  EXPECT_EQ(pacer.take_released(0), std::vector<uint64_t>{});  // one permit kept from here
  pacer.offer({9, 2}, 2, 10, false);
  pacer.offer({4, 7}, 2, 10, false);
  pacer.offer({4, 3}, 3, 10, false);
  // A first attempt of lower priority than those waiting waits too; one
  // with full own buffers as well.
  pacer.offer({12, 2}, 1, 10, false);
  pacer.offer({1, 2}, 1, 10, true);
  EXPECT_EQ(pacer.delayed(), 5u);
  EXPECT_EQ(pacer.take_released(10), (std::vector<uint64_t>{1}));    // the permit kept from time 0
  EXPECT_EQ(pacer.next_release(), 1000);                             // permits every 1000 ps from there
  EXPECT_EQ(pacer.take_released(1000), (std::vector<uint64_t>{4}));  // (4, 3) before (4, 7)
  EXPECT_EQ(pacer.take_released(3000), (std::vector<uint64_t>{4, 9}));
  // A first attempt goes at once when nothing waits.
  pacer.offer({2, 5}, 1, 3000, false);
  EXPECT_EQ(pacer.take_released(3000), (std::vector<uint64_t>{2}));
}

TEST(TicketPacer, PermitsFollowTheArrivalRate) {
  TicketPacer pacer({}, 1000);
  for (Picos t = 0; t <= 200 * 4000; t += 4000) pacer.host_arrival(t);
  EXPECT_NEAR(static_cast<double>(pacer.permit_interval()), 4000, 1);
}

}  // namespace
}  // namespace fabric::ring
