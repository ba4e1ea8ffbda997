// A ring packet finds its buffer reserved at every member (issue 50: the
// ring's reservations as an invariant of every run): a broken sender that
// multicasts a packet before its reservation is complete stops the run at
// the member it reaches, naming the station and the packet.
#include <gtest/gtest.h>

#include <string>

#include "model/core/event_scheduler.h"
#include "model/core/sim_time.h"
#include "model/invariants/invariant_broken.h"
#include "model/protocol/payload_pool.h"
#include "model/ring/ring_station.h"

namespace fabric {
namespace {

TEST(RingReservationInvariant, APacketMulticastBeforeItsReservationStopsTheRun) {
  const std::vector<ring::RingGroup> groups{{0, {0, 1, 2, 3}, {0, 1, 2, 3}}};
  const ring::RingLayout layout = ring::RingLayout::single_ring(4, groups);
  EventScheduler scheduler("scheduler", EventQueueShape{12, 8, 4});
  PayloadPool pool;
  ring::RingFrameStore frames;
  RingStationParams params;
  params.buffers = 20;
  params.latency = 100'000;
  params.members = 4;
  params.permit_interval = 1'000'000;
  params.observe_every = 1'000'000;
  RingStation member("station1", 1, 1, layout, groups, params, frames, pool, scheduler.queue());

  // Station 0's packet, sent with no ticket of it ever seen at station 1.
  ring::RingFrame f;
  f.kind = ring::FrameKind::data;
  f.origin = 0;
  f.from = 0;
  f.group = 0;
  f.priority = {5, 0};
  f.packet = 7;
  Payload& m = pool.acquire(MessageKind::frame, ring::wire_bytes(f));
  m.set_address(frames.put(f));
  ModelClock::set(1'000'000);
  forget_broken_invariant();
  try {
    static_cast<EventQueue::Client&>(member).on_wake(&m);
    FAIL() << "a packet with no buffer reserved was taken";
  } catch (const InvariantBroken& e) {
    EXPECT_EQ(e.invariant(), invariant::kReserved);
    EXPECT_EQ(e.entity(), "station1");
    EXPECT_NE(std::string(e.what()).find("packet 7 of station 0 (group 0) arrived with no buffer reserved"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(member.invariants_checked(), 1u);
  forget_broken_invariant();
  ModelClock::release();
}

}  // namespace
}  // namespace fabric
