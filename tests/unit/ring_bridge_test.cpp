// QuickRing rings joined by bridges (E14) on a toy network without time:
// each step moves one frame over one segment of one ring, picked at random
// from a seed. Every member on every ring delivers every packet of its
// group exactly once and all in one order; the bridges' tickets converge up
// the tree; overload with retracts ends; a retract request finds its sender
// across bridges.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "model/ring/bridge_protocol.h"
#include "model/ring/ring_network.h"
#include "model/ring/station_protocol.h"

namespace fabric::ring {
namespace {

struct ToyNetwork {
  ToyNetwork(const RingNetwork& net, int buffers, int bridge_buffers, int limit, uint64_t seed) : net(net), rng(seed) {
    for (int h = 0; h < net.hosts(); ++h) {
      const int r = net.ring_of(h);
      station.push_back(std::make_unique<StationProtocol>(net.position_of(h), h, net.layouts[static_cast<size_t>(r)],
                                                          buffers, net.groups));
      station.back()->set_limit(limit);
    }
    for (const RingNetwork::Bridge& b : net.bridges)
      bridge.push_back(std::make_unique<BridgeProtocol>(b.sides[0], b.sides[1], bridge_buffers));
    for (int r = 0; r < net.rings; ++r) {
      const size_t n = net.positions[static_cast<size_t>(r)].size();
      links.emplace_back(n);
      transit.emplace_back(n);
    }
    delivered.resize(static_cast<size_t>(net.hosts()));
  }

  bool own_frame(int r, int p, RingFrame& f) {
    const RingNetwork::Position& at = net.positions[static_cast<size_t>(r)][static_cast<size_t>(p)];
    if (at.bridge) {
      BridgeProtocol& b = *bridge[static_cast<size_t>(at.id)];
      std::vector<BridgeProtocol::Ready> ready;
      b.take_ready(ready);
      for (const auto& x : ready) b.launch(x.side, x.priority);
      auto o = b.take_frame(at.side);
      if (!o) return false;
      f = *o;
      return true;
    }
    StationProtocol& s = *station[static_cast<size_t>(at.id)];
    std::vector<StationProtocol::Ready> ready;
    s.take_ready_tickets(ready);
    for (const auto& x : ready) s.send_ticket(x.vts);
    std::vector<Delivery> d;
    s.take_deliveries(d);
    for (const Delivery& x : d) delivered[static_cast<size_t>(at.id)].push_back({x.source, x.packet});
    auto o = s.take_frame();
    s.take_deliveries(d);
    for (const Delivery& x : d) delivered[static_cast<size_t>(at.id)].push_back({x.source, x.packet});
    if (!o) return false;
    f = *o;
    return true;
  }

  void pump() {
    for (int r = 0; r < net.rings; ++r) {
      for (size_t p = 0; p < links[static_cast<size_t>(r)].size(); ++p) {
        auto& tq = transit[static_cast<size_t>(r)][p];
        auto& link = links[static_cast<size_t>(r)][p];
        if (link.size() >= 2) continue;
        if (!tq.empty()) {
          link.push_back(tq.front());
          tq.pop_front();
        } else {
          RingFrame f;
          if (own_frame(r, static_cast<int>(p), f)) link.push_back(f);
        }
      }
    }
  }

  bool step() {
    pump();
    std::vector<std::pair<int, int>> busy;
    for (int r = 0; r < net.rings; ++r)
      for (size_t p = 0; p < links[static_cast<size_t>(r)].size(); ++p)
        if (!links[static_cast<size_t>(r)][p].empty()) busy.push_back({r, static_cast<int>(p)});
    if (busy.empty()) return false;
    const auto [r, from] = busy[std::uniform_int_distribution<size_t>(0, busy.size() - 1)(rng)];
    auto& ring_links = links[static_cast<size_t>(r)];
    RingFrame f = ring_links[static_cast<size_t>(from)].front();
    ring_links[static_cast<size_t>(from)].pop_front();
    const int to = (from + 1) % static_cast<int>(ring_links.size());
    const RingNetwork::Position& at = net.positions[static_cast<size_t>(r)][static_cast<size_t>(to)];
    const bool on = at.bridge ? bridge[static_cast<size_t>(at.id)]->receive(at.side, f)
                              : station[static_cast<size_t>(at.id)]->receive(f);
    if (on) transit[static_cast<size_t>(r)][static_cast<size_t>(to)].push_back(f);
    return true;
  }

  const RingNetwork& net;
  std::mt19937_64 rng;
  std::vector<std::unique_ptr<StationProtocol>> station;
  std::vector<std::unique_ptr<BridgeProtocol>> bridge;
  std::vector<std::vector<std::deque<RingFrame>>> links, transit;  // by ring, position
  std::vector<std::vector<std::pair<int, uint64_t>>> delivered;    // by host
};

void run_and_check(const RingNetwork& net, int buffers, int bridge_buffers, int limit, int packets, uint64_t seed) {
  ToyNetwork t(net, buffers, bridge_buffers, limit, seed);
  for (int k = 0; k < packets; ++k)
    for (const RingGroup& g : net.groups)
      for (int s : g.senders) t.station[static_cast<size_t>(s)]->host_packet(static_cast<uint64_t>(k));
  uint64_t steps = 0;
  while (t.step()) ASSERT_LT(++steps, 20'000'000u) << "no end";
  for (int i = 0; i < 3; ++i) t.pump();
  for (const RingGroup& g : net.groups) {
    const auto& first = t.delivered[static_cast<size_t>(g.members.front())];
    EXPECT_EQ(first.size(), g.senders.size() * static_cast<size_t>(packets)) << "group " << g.id << " seed " << seed;
    const std::set<std::pair<int, uint64_t>> unique(first.begin(), first.end());
    EXPECT_EQ(unique.size(), first.size()) << "a packet delivered twice";
    for (int m : g.members) EXPECT_EQ(t.delivered[static_cast<size_t>(m)], first) << "member " << m << " seed " << seed;
  }
}

TEST(RingBridges, TwoRingsAllToAllDeliverInOneTotalOrder) {
  for (uint64_t seed = 1; seed <= 4; ++seed) run_and_check(build_ring_network(2, 8, 2, 3, true), 20, 40, 3, 20, seed);
}

TEST(RingBridges, SevenRingsOneToAllAndAllToAll) {
  run_and_check(build_ring_network(7, 8, 1, 3, false), 20, 40, 4, 30, 2);
  run_and_check(build_ring_network(7, 8, 1, 2, true), 20, 40, 2, 6, 3);
}

TEST(RingBridges, OverloadWithRetractsAcrossBridgesEnds) {
  // Three rings, few buffers: members and bridges are full, and retract
  // requests travel across bridges to their senders.
  for (uint64_t seed = 1; seed <= 3; ++seed) run_and_check(build_ring_network(3, 8, 1, 4, true), 3, 3, 2, 10, seed);
}

// A ticket's map bits through a bridge: the local ticket waits at the
// bridge while the ticket beyond collects its ring's bits, and goes on with
// the bridge's bit clear only when every bit beyond came back clear.
TEST(BridgeProtocol, TheTicketBeyondConvergesIntoTheLocalTicketsBit) {
  const RingNetwork n = build_ring_network(2, 8, 1, 3, false);  // station 0 sends to 1, 2 and 8, 9, 10
  BridgeProtocol bridge(n.bridges[0].sides[0], n.bridges[0].sides[1], 40);
  const int here = n.bridges[0].sides[0].position, there = n.bridges[0].sides[1].position;
  ASSERT_EQ(here, 8);
  ASSERT_EQ(there, 8);
  RingFrame voucher;
  voucher.kind = FrameKind::voucher;
  voucher.origin = 0;
  voucher.from = 0;
  voucher.group = 0;
  voucher.priority = {7, 0};
  voucher.timestamp = 7;
  EXPECT_FALSE(bridge.receive(0, voucher));  // the bridge is the last destination on ring 0
  std::vector<BridgeProtocol::Ready> ready;
  bridge.take_ready(ready);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0].side, 1);
  bridge.launch(1, ready[0].priority);
  const auto relayed_voucher = bridge.take_frame(1);
  ASSERT_TRUE(relayed_voucher);
  EXPECT_EQ(relayed_voucher->kind, FrameKind::voucher);
  auto beyond = bridge.take_frame(1);
  ASSERT_TRUE(beyond);
  EXPECT_EQ(beyond->kind, FrameKind::ticket);
  EXPECT_EQ(beyond->from, there);
  EXPECT_EQ(beyond->map, 0b111u);  // stations 8, 9, 10 at positions 0, 1, 2 of ring 1
  // The local ticket (members 1, 2 and the bridge) reaches the bridge: held.
  RingFrame local = voucher;
  local.kind = FrameKind::ticket;
  local.map = (1u << 1) | (1u << 2) | (1u << here);
  local.map &= ~(1u << 1);  // station 1 reserved on the way
  EXPECT_FALSE(bridge.receive(0, local));
  EXPECT_EQ(bridge.held_tickets(), 1);
  EXPECT_FALSE(bridge.take_frame(0));
  // The ticket beyond comes back with position 1 still set: the local
  // ticket goes on with the bridge's bit set (a retry will send 0b010 beyond).
  beyond->map = 0b010;
  EXPECT_FALSE(bridge.receive(1, *beyond));
  auto released = bridge.take_frame(0);
  ASSERT_TRUE(released);
  EXPECT_EQ(released->map, (1u << 2) | (1u << here));
  // The retry: the bridge launches the bits still set, then clears its own.
  EXPECT_FALSE(bridge.receive(0, *released));
  bridge.take_ready(ready);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0].attempt, 2);
  bridge.launch(1, ready[0].priority);
  auto retry = bridge.take_frame(1);
  ASSERT_TRUE(retry);
  EXPECT_EQ(retry->map, 0b010u);
  retry->map = 0;
  EXPECT_FALSE(bridge.receive(1, *retry));
  released = bridge.take_frame(0);
  ASSERT_TRUE(released);
  EXPECT_EQ(released->map, 1u << 2);  // only station 2's bit, as it left the bridge
}

// The permits beyond follow what is offered there: every new packet's
// voucher, whether it found a buffer or not, and not a retry's voucher.
TEST(BridgeProtocol, OfferedLoadBeyondCountsNewPacketsVouchersWithOrWithoutRoom) {
  const RingNetwork n = build_ring_network(2, 8, 1, 3, false);
  BridgeProtocol bridge(n.bridges[0].sides[0], n.bridges[0].sides[1], 1);  // one buffer a side
  RingFrame voucher;
  voucher.kind = FrameKind::voucher;
  voucher.priority = {7, 0};
  voucher.timestamp = 7;
  voucher.created = 5000;
  std::vector<BridgeProtocol::Offered> offered;
  bridge.receive(0, voucher);
  bridge.take_offered(offered);
  ASSERT_EQ(offered.size(), 1u);
  EXPECT_EQ(offered[0].exit, 1);  // for ring 1, beyond side 0
  EXPECT_EQ(offered[0].sender, 0);
  EXPECT_EQ(offered[0].made, 5000);
  bridge.receive(0, voucher);  // the same packet's retry
  bridge.take_offered(offered);
  EXPECT_TRUE(offered.empty());
  RingFrame next = voucher;  // a later packet finds the one buffer taken
  next.priority = {9, 0};
  next.timestamp = 9;
  next.created = 6000;
  bridge.receive(0, next);
  std::vector<BridgeProtocol::Ready> ready;
  bridge.take_ready(ready);
  EXPECT_EQ(ready.size(), 1u);  // only the first has a crossing
  bridge.take_offered(offered);
  ASSERT_EQ(offered.size(), 1u);  // offered all the same
  EXPECT_EQ(offered[0].made, 6000);
}

TEST(RingNetworkLayout, BridgesAreDestinationsAndBeyondSetsSplitTheTree) {
  const RingNetwork n = build_ring_network(3, 16, 3, 5, true);
  ASSERT_EQ(n.bridges.size(), 2u);
  EXPECT_EQ(n.positions[0].size(), 18u);  // 16 stations and two bridges to rings 1 and 2
  EXPECT_EQ(n.positions[1].size(), 17u);
  // Group 0 on ring 0: stations 1-4 and both bridges (from station 0).
  EXPECT_EQ(n.layouts[0].destinations(0, 0), 0b11'0000'0000'0001'1110u);
  EXPECT_EQ(n.layouts[0].last_destination(0, 0), 17);
  EXPECT_TRUE(n.layouts[0].has_bridge(0));
  // Bridge 0 joins ring 0 (side 0) and ring 1 (side 1): ring 1's hosts are
  // beyond side 0, ring 0's and ring 2's beyond side 1.
  EXPECT_EQ(n.bridges[0].parent, 0);
  EXPECT_EQ(n.bridges[0].child, 1);
  EXPECT_TRUE(n.bridges[0].sides[0].beyond[16]);
  EXPECT_FALSE(n.bridges[0].sides[0].beyond[0]);
  EXPECT_FALSE(n.bridges[0].sides[0].beyond[32]);
  EXPECT_TRUE(n.bridges[0].sides[1].beyond[0]);
  EXPECT_TRUE(n.bridges[0].sides[1].beyond[40]);
  EXPECT_THROW(build_ring_network(3, 31, 1, 5, true), std::invalid_argument);  // 33 positions on ring 0
}

// The document's Fig. 9(b): three rings, two groups whose trees share no
// bridge; and Fig. 9(c): seven rings, the senders on the centre ring only.
TEST(RingNetworkLayout, GroupsSitOnTheirOwnRingsAndSendFromTheSendingRings) {
  const RingNetwork b = build_ring_network({3, 16, 2, 5, true, {{0, 1}, {0, 2}}, {}});
  EXPECT_EQ(b.groups[0].members.size(), 10u);
  EXPECT_EQ(b.groups[0].members.back(), 16 + 4);  // stations 0-4 of rings 0 and 1
  EXPECT_EQ(b.groups[1].members.back(), 32 + 9);  // stations 5-9 of rings 0 and 2
  // On ring 0 the bridge to ring 1 (position 16) serves group 0 only, the
  // bridge to ring 2 (position 17) group 1 only.
  EXPECT_EQ(b.layouts[0].destinations(0, 0), 0b01'0000'0000'0001'1110u);
  EXPECT_EQ(b.layouts[0].destinations(1, 5), 0b10'0000'0011'1100'0000u);
  EXPECT_EQ(b.layouts[2].destinations(0, 0), 0u);  // group 0 is not on ring 2
  EXPECT_FALSE(b.layouts[1].has_bridge(1));
  const RingNetwork c = build_ring_network({7, 16, 3, 5, true, {}, {0}});
  for (const RingGroup& g : c.groups) {
    EXPECT_EQ(g.members.size(), 35u);
    ASSERT_EQ(g.senders.size(), 5u);
    for (int s : g.senders) EXPECT_LT(s, 16);  // ring 0's stations
  }
  const RingNetwork one = build_ring_network({7, 16, 3, 5, false, {}, {0}});
  EXPECT_EQ(one.groups[1].senders, std::vector<int>{5});
  EXPECT_THROW(build_ring_network({3, 16, 1, 5, true, {{1, 2}}, {}}), std::invalid_argument);  // not joined
  EXPECT_THROW(build_ring_network({3, 16, 1, 5, true, {{1}}, {0}}), std::invalid_argument);    // no sender
  EXPECT_THROW(build_ring_network({3, 16, 2, 5, true, {{0}}, {}}), std::invalid_argument);     // one list, two groups
}

// Fig. 9(b) and (c) on the toy network: every member delivers every packet
// of its group once, in one order.
TEST(RingBridges, GroupsOnTheirOwnRingsAndSendersOnTheCentreRingDeliverInOneTotalOrder) {
  for (const RingPlacement& at :
       {RingPlacement{3, 8, 2, 3, true, {{0, 1}, {0, 2}}, {}}, RingPlacement{7, 8, 2, 3, true, {}, {0}}})
    for (uint64_t seed = 1; seed <= 3; ++seed) run_and_check(build_ring_network(at), 4, 8, 2, 6, seed);
}

}  // namespace
}  // namespace fabric::ring
