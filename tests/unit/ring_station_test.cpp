// The QuickRing station state machine (E14) on a toy ring without time:
// each step moves one frame over one segment, the segment picked at random
// from a seed (every interleaving a FIFO ring allows). Every member
// delivers every packet of its group exactly once and in the same order; no
// receiver overflows; overload with retracts ends.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "model/ring/station_protocol.h"

namespace fabric::ring {
namespace {

struct ToyRing {
  ToyRing(int stations, int buffers, const std::vector<RingGroup>& groups, int limit, uint64_t seed)
      : rng(seed), links(static_cast<size_t>(stations)), transit(static_cast<size_t>(stations)) {
    for (int s = 0; s < stations; ++s) {
      station.emplace_back(s, stations, buffers, groups);
      station.back().set_limit(limit);
    }
    delivered.resize(static_cast<size_t>(stations));
  }

  // Retries and first attempts go at once; each station then puts its next
  // frame on its segment if its transit buffer is empty.
  void pump(int s) {
    StationProtocol& p = station[static_cast<size_t>(s)];
    std::vector<StationProtocol::Ready> ready;
    p.take_ready_tickets(ready);
    for (const auto& r : ready) p.send_ticket(r.vts);
    std::vector<Delivery> deliveries;
    p.take_deliveries(deliveries);
    for (const Delivery& d : deliveries) delivered[static_cast<size_t>(s)].push_back({d.source, d.packet});
    std::vector<SenderNotice> notices;
    p.take_notices(notices);
    for (const SenderNotice& n : notices) {
      if (n.kind == SenderNotice::Kind::authorised) {
        attempts += static_cast<uint64_t>(n.attempts);
        ++authorised;
      }
    }
    if (transit[static_cast<size_t>(s)].empty() && p.has_frame())
      links[static_cast<size_t>(s)].push_back(*p.take_frame());
    if (!transit[static_cast<size_t>(s)].empty() && links[static_cast<size_t>(s)].size() < 2) {
      links[static_cast<size_t>(s)].push_back(transit[static_cast<size_t>(s)].front());
      transit[static_cast<size_t>(s)].pop_front();
    }
  }

  // Moves one frame; false when nothing moves any more.
  bool step() {
    const int n = static_cast<int>(station.size());
    for (int s = 0; s < n; ++s) pump(s);
    std::vector<int> busy;
    for (int s = 0; s < n; ++s)
      if (!links[static_cast<size_t>(s)].empty()) busy.push_back(s);
    if (busy.empty()) return false;
    const int from = busy[std::uniform_int_distribution<size_t>(0, busy.size() - 1)(rng)];
    RingFrame f = links[static_cast<size_t>(from)].front();
    links[static_cast<size_t>(from)].pop_front();
    const int to = (from + 1) % n;
    if (station[static_cast<size_t>(to)].receive(f)) transit[static_cast<size_t>(to)].push_back(f);
    for (const StationProtocol& p : station) max_used = std::max(max_used, p.buffers().capacity() - p.buffers().free());
    return true;
  }

  std::mt19937_64 rng;
  std::vector<StationProtocol> station;
  std::vector<std::deque<RingFrame>> links, transit;
  std::vector<std::vector<std::pair<int, uint64_t>>> delivered;
  uint64_t attempts = 0, authorised = 0;
  int max_used = 0;
};

// Runs `packets` per sender to the end and checks delivery: each member of
// a group delivers the same sequence, of every packet of its senders.
void run_and_check(int stations, int buffers, const std::vector<RingGroup>& groups, int limit, int packets,
                   uint64_t seed, uint64_t max_steps = 20'000'000) {
  ToyRing ring(stations, buffers, groups, limit, seed);
  for (int k = 0; k < packets; ++k)
    for (const RingGroup& g : groups)
      for (int s : g.senders) ring.station[static_cast<size_t>(s)].host_packet(static_cast<uint64_t>(k));
  uint64_t steps = 0;
  while (ring.step()) ASSERT_LT(++steps, max_steps) << "no end: livelock";
  for (int s = 0; s < stations; ++s) ring.pump(s);
  EXPECT_LE(ring.max_used, buffers);
  for (const RingGroup& g : groups) {
    const auto& first = ring.delivered[static_cast<size_t>(g.members.front())];
    std::set<std::pair<int, uint64_t>> unique(first.begin(), first.end());
    EXPECT_EQ(first.size(), g.senders.size() * static_cast<size_t>(packets)) << "group " << g.id;
    EXPECT_EQ(unique.size(), first.size()) << "a packet delivered twice";
    for (int m : g.members)
      EXPECT_EQ(ring.delivered[static_cast<size_t>(m)], first) << "member " << m << " seed " << seed;
  }
}

std::vector<RingGroup> blocks(int count, int size, bool one_to_all) {
  std::vector<RingGroup> groups;
  for (int g = 0; g < count; ++g) {
    RingGroup r;
    r.id = g;
    for (int i = 0; i < size; ++i) r.members.push_back(g * size + i);
    r.senders = one_to_all ? std::vector<int>{r.members.front()} : r.members;
    groups.push_back(r);
  }
  return groups;
}

TEST(StationProtocol, ThreeGroupsOfFiveAllToAllDeliverInOneTotalOrder) {
  for (uint64_t seed = 1; seed <= 5; ++seed) run_and_check(16, 20, blocks(3, 5, false), 4, 40, seed);
}

TEST(StationProtocol, OneToAllDeliversEverything) { run_and_check(16, 20, blocks(1, 10, true), 0, 200, 3); }

TEST(StationProtocol, OverloadWithRetractsEndsInOneTotalOrder) {
  // Ten senders, three buffers, two packets each in reservation: tickets
  // find members full and ask the lowest holders to retract (thousands of
  // retracts). Without a limit the same run thrashes for millions of steps
  // a packet: that is what flow control is for.
  for (uint64_t seed = 1; seed <= 5; ++seed) run_and_check(10, 3, blocks(1, 10, false), 2, 30, seed);
}

TEST(StationProtocol, ALoneSenderAtLowLoadGoesOnTheFirstAttempt) {
  ToyRing ring(16, 20, blocks(1, 5, true), 0, 1);
  for (int k = 0; k < 50; ++k) {
    ring.station[0].host_packet(static_cast<uint64_t>(k));
    while (ring.step()) {
    }
  }
  for (int s = 0; s < 16; ++s) ring.pump(s);
  EXPECT_EQ(ring.authorised, 50u);
  EXPECT_EQ(ring.attempts, 50u);
}

TEST(StationProtocol, AMemberOnlyForwardsTheFirstRetractRequestForAHolder) {
  // Station 1's only buffer is held by station 0's reservation (5, 0); the
  // tickets of (3, 2) and then (4, 3) find it full, and both are of higher
  // priority: one retract request goes to station 0.
  std::vector<RingGroup> groups = blocks(1, 4, false);
  StationProtocol member(1, 4, 1, groups);
  RingFrame t;
  t.kind = FrameKind::ticket;
  t.group = 0;
  t.origin = 0;
  t.from = 0;
  t.priority = {5, 0};
  t.map = 0b1110;
  ASSERT_TRUE(member.receive(t));
  EXPECT_EQ(t.map, 0b1100u);  // reserved: its bit cleared
  RingFrame higher = t;
  higher.origin = 2;
  higher.from = 2;
  higher.priority = {3, 2};
  higher.map = 0b1011;
  ASSERT_TRUE(member.receive(higher));
  EXPECT_EQ(higher.map, 0b1011u);  // full: still set
  RingFrame other = higher;
  other.origin = 3;
  other.from = 3;
  other.priority = {4, 3};
  other.map = 0b0111;
  ASSERT_TRUE(member.receive(other));
  int requests = 0;
  while (const auto f = member.take_frame()) {
    EXPECT_EQ(f->kind, FrameKind::retract_request);
    EXPECT_EQ(f->target, 0);
    EXPECT_EQ(f->priority, (Priority{5, 0}));
    ++requests;
  }
  EXPECT_EQ(requests, 1);  // the second was merged into the first
  // A request for the same holder in transit from elsewhere stops here too.
  RingFrame dup;
  dup.kind = FrameKind::retract_request;
  dup.group = 0;  // the holder's group
  dup.origin = 3;
  dup.from = 3;
  dup.priority = {5, 0};
  dup.target = 0;
  EXPECT_FALSE(member.receive(dup));
}

// A station's own frames: retracts first, then tickets in SPQ order (a
// retry of an older packet before a newer packet's ticket), then data; or
// data before tickets.
TEST(StationProtocol, OwnFramesGoRetractsTicketsInSpqOrderThenData) {
  for (const OwnFrames order : {OwnFrames::control_first, OwnFrames::data_first}) {
    StationProtocol s(0, 0, RingLayout::single_ring(4, blocks(1, 4, false)), 4, blocks(1, 4, false), false, order);
    for (uint64_t k = 0; k < 3; ++k) s.host_packet(k);  // VTS 1, 2, 3
    std::vector<StationProtocol::Ready> ready;
    s.take_ready_tickets(ready);
    ASSERT_EQ(ready.size(), 3u);
    s.send_ticket(1);
    auto first = s.take_frame();  // the ticket of VTS 1 goes round ...
    ASSERT_TRUE(first);
    first->map = 0;  // ... and every member reserved: VTS 1 is authorised
    EXPECT_FALSE(s.receive(*first));
    s.send_ticket(3);
    s.send_ticket(2);
    // Member 2 asks VTS 3 to retract: kind, origin, from, group, priority.
    RingFrame request{FrameKind::retract_request, 2, 2, 0, {3, 0}};
    request.target = 0;
    EXPECT_FALSE(s.receive(request));
    std::vector<std::pair<FrameKind, uint64_t>> sent;
    while (const auto f = s.take_frame()) sent.push_back({f->kind, f->priority.vts});
    const std::vector<std::pair<FrameKind, uint64_t>> control_first{
        {FrameKind::retract, 3}, {FrameKind::ticket, 2}, {FrameKind::ticket, 3}, {FrameKind::data, 1}};
    const std::vector<std::pair<FrameKind, uint64_t>> data_first{
        {FrameKind::retract, 3}, {FrameKind::data, 1}, {FrameKind::ticket, 2}, {FrameKind::ticket, 3}};
    EXPECT_EQ(sent, order == OwnFrames::control_first ? control_first : data_first);
  }
}

}  // namespace
}  // namespace fabric::ring
