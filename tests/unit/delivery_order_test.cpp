// "Delivered once and in order" (issue 50): a destination CNA keeps, per
// source, priority and group, the send number of the frame delivered last;
// a frame delivered twice, or overtaken by a later one, stops the run.
#include "model/invariants/delivery_order.h"

#include <gtest/gtest.h>

#include <string>

#include "model/cna/cna.h"
#include "model/core/event_scheduler.h"
#include "model/invariants/invariant_broken.h"
#include "model/leaf/fdb.h"
#include "model/protocol/ethernet_frame.h"
#include "model/protocol/payload_pool.h"

namespace fabric {
namespace {

TEST(DeliveryOrder, EachSourcePriorityAndGroupIsItsOwnOrder) {
  DeliveryOrder order;
  EXPECT_EQ(order.deliver(PortId(3), 0, false, Mid(0), 1), 0u);
  EXPECT_EQ(order.deliver(PortId(3), 0, false, Mid(0), 4), 1u);  // gaps: frames dropped on the way
  EXPECT_EQ(order.deliver(PortId(3), 1, false, Mid(0), 2), 0u);  // another priority
  EXPECT_EQ(order.deliver(PortId(3), 0, true, Mid(0), 3), 0u);   // the source's group: another path
  EXPECT_EQ(order.deliver(PortId(4), 0, false, Mid(0), 2), 0u);  // another source
  EXPECT_EQ(order.deliver(PortId(3), 0, false, Mid(0), 3), 4u);  // overtaken: the caller breaks the invariant
}

// A broken fabric as a test double: it hands a CNA the frames of one source
// in the wrong order, or one twice.
class MisorderingFabric {
 public:
  MisorderingFabric() : scheduler_("scheduler", EventQueueShape{12, 8, 4}) {
    cna_ = std::make_unique<Cna>("cna7", PortId(7), CnaParams{}, pool_, scheduler_.queue());
  }
  void deliver(uint32_t sent_seq) {
    Payload& m = acquire_frame(pool_, {FrameId(sent_seq), FlowId(1), PortId(2), 1522, 0, 0}, mac_of(PortId(7)));
    frame_of(m).sent_seq = sent_seq;
    cna_->receive(0, m);
  }
  // The invariant the CNA broke, or empty.
  std::string broken(uint32_t sent_seq) {
    forget_broken_invariant();
    try {
      deliver(sent_seq);
    } catch (const InvariantBroken& e) {
      EXPECT_EQ(e.entity(), "cna7");
      message_ = e.what();
      forget_broken_invariant();
      return e.invariant();
    }
    return {};
  }
  const std::string& message() const { return message_; }

 private:
  PayloadPool pool_;
  EventScheduler scheduler_;
  std::unique_ptr<Cna> cna_;
  std::string message_;
};

TEST(DeliveryOrder, AFrameOvertakenByALaterOneStopsTheRun) {
  MisorderingFabric fabric;
  EXPECT_EQ(fabric.broken(1), "");
  EXPECT_EQ(fabric.broken(3), "");
  EXPECT_EQ(fabric.broken(2), invariant::kInOrder);
  EXPECT_NE(fabric.message().find("overtake"), std::string::npos) << fabric.message();
}

TEST(DeliveryOrder, AFrameDeliveredTwiceStopsTheRun) {
  MisorderingFabric fabric;
  EXPECT_EQ(fabric.broken(1), "");
  EXPECT_EQ(fabric.broken(1), invariant::kInOrder);
  EXPECT_NE(fabric.message().find("delivered twice"), std::string::npos) << fabric.message();
}

}  // namespace
}  // namespace fabric
