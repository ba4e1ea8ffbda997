// RetrySender: the sending half of link-level retry. Messages are numbered
// and kept until a link ACK covers them; a NAK or a retry timeout replays
// go-back-N; link ACKs are coalesced; NAKs go first.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/link/link_probe.h"
#include "model/link/retry_sender.h"
#include "model/link/tx_port.h"
#include "tests/support/spec_params.h"

namespace fabric {
namespace {

struct EventLog final : Recorder {
  struct Event {
    Picos t;
    EventKind kind;
    std::string entity;
    double value;
  };
  std::vector<Event> events;
  EntityTable entities;
  EntityId declare(EntityKind kind, const std::string& name, int64_t port, const EntityPlace& place) override {
    return entities.declare(kind, name, port, place);
  }
  void frame(const FrameRecord&) override {}
  void delivery(const DeliveryRecord&) override {}
  void drop(const DropRecord&) override {}
  void sample_named(Picos, EntityId, std::string_view, double) override {}
  void total_named(EntityId, std::string_view, double) override {}
  void event(Picos t, EventKind kind, EntityId entity, int64_t, double value) override {
    events.push_back({t, kind, entities.named(entity).name, value});
  }
  void subflow_summary(const SubflowSummary&) override {}
  void job(const JobRecord&) override {}
  void job_operation(const JobOperationRecord&) override {}
};

class RetrySenderTest : public ::testing::Test {
 protected:
  RetrySenderTest() {
    params_ = testing::spec_link_retry_params();
    params_.buffer_bytes = 1024;
    params_.ack_delay = 100;
    params_.timeout = 2000;
  }
  Payload& packet(uint32_t bytes, uint16_t index) {
    Payload& p = pool_.acquire(MessageKind::packet, bytes);
    packet_of(p).index = index;
    return p;
  }
  // Sends a new packet through the sender; returns the copy's sequence number and index.
  std::pair<uint32_t, uint16_t> send_new(RetrySender& s, uint16_t index, Picos now, uint32_t bytes = 256) {
    Payload& sent = s.admit(packet(bytes, index), now);
    const auto r = std::make_pair(info_of(sent).link_seq, packet_of(sent).index);
    EXPECT_FALSE(info_of(sent).replay);
    sent.release();  // the receiver's side of the link
    return r;
  }
  // Whatever is urgent now, as (kind, link seq or control units, replay); empty kind "none".
  std::string take(RetrySender& s, Picos now) {
    Payload* m = s.take_urgent(now);
    if (!m) return "none";
    std::string out;
    if (info_of(*m).kind == MessageKind::control) {
      out = std::string(to_string(control_of(*m).kind)) + " " + std::to_string(control_of(*m).units);
    } else {
      out = std::string(info_of(*m).replay ? "replay " : "new ") + std::to_string(info_of(*m).link_seq) + " #" +
            std::to_string(packet_of(*m).index);
    }
    m->release();
    return out;
  }

  LinkRetryParams params_;
  PayloadPool pool_;
  EventLog log_;
};

TEST_F(RetrySenderTest, NumbersMessagesAndKeepsThemUntilAcknowledged) {
  RetrySender s(params_, pool_, "l");
  for (uint16_t i = 0; i < 4; ++i) EXPECT_EQ(send_new(s, i, 10).first, i);
  EXPECT_EQ(pool_.in_use(), 4u);  // the originals
  EXPECT_FALSE(s.has_room(1));    // 4 x 256 B fill 1024 B
  s.on_ack(1, 20);
  EXPECT_EQ(pool_.in_use(), 2u);
  EXPECT_TRUE(s.has_room(512));
  EXPECT_FALSE(s.has_room(513));
  EXPECT_EQ(take(s, 20), "none");
  s.on_ack(3, 30);
  EXPECT_EQ(pool_.in_use(), 0u);
}

TEST_F(RetrySenderTest, NakReplaysFromTheNamedNumberInOrder) {
  RetrySender s(params_, pool_, "leaf0_spine0_up");
  LinkProbe probe(log_, "leaf0_spine0_up", {}, true);  // the replays recorded as events of the link
  s.set_observer(&probe);
  for (uint16_t i = 0; i < 4; ++i) send_new(s, i, 10);
  s.on_nak(2, 50);  // 0 and 1 arrived, 2 did not
  EXPECT_EQ(pool_.in_use(), 2u);
  EXPECT_EQ(take(s, 50), "replay 2 #2");
  EXPECT_EQ(take(s, 50), "replay 3 #3");
  EXPECT_EQ(take(s, 50), "none");
  EXPECT_EQ(s.replays(), 2u);
  ASSERT_EQ(log_.events.size(), 1u);
  EXPECT_EQ(log_.events[0].kind, EventKind::link_replay);
  EXPECT_EQ(log_.events[0].entity, "leaf0_spine0_up");
  EXPECT_EQ(log_.events[0].value, 2);
  // A stale NAK for what was acknowledged since changes nothing.
  s.on_ack(3, 60);
  s.on_nak(2, 70);
  EXPECT_EQ(take(s, 70), "none");
}

TEST_F(RetrySenderTest, SilenceForTheTimeoutReplaysEverything) {
  RetrySender s(params_, pool_, "l");
  send_new(s, 0, 100);
  send_new(s, 1, 150);
  EXPECT_EQ(s.timeout_at(), 100 + 2000);
  EXPECT_EQ(s.next_deadline(), kNever);  // nothing to send before then
  EXPECT_FALSE(s.check_timeout(2099));
  EXPECT_EQ(take(s, 2099), "none");
  EXPECT_TRUE(s.check_timeout(2100));  // the NAK or the ACK was lost
  EXPECT_EQ(s.next_deadline(), 0);     // replays are due now
  EXPECT_EQ(s.timeouts(), 1u);
  EXPECT_EQ(take(s, 2100), "replay 0 #0");
  EXPECT_EQ(take(s, 2100), "replay 1 #1");
  // An ACK for part of it restarts the clock from then.
  s.on_ack(0, 2500);
  EXPECT_EQ(s.timeout_at(), 2500 + 2000);
  s.on_ack(1, 2600);
  EXPECT_EQ(s.timeout_at(), kNever);
}

TEST_F(RetrySenderTest, LinkAcksAreCoalescedAndNaksGoFirst) {
  RetrySender s(params_, pool_, "l");
  s.owe_ack(5, false, 1000);
  s.owe_ack(6, false, 1040);  // the deadline counts from the oldest owed
  EXPECT_EQ(s.next_deadline(), 1100);
  EXPECT_EQ(take(s, 1099), "none");
  EXPECT_EQ(take(s, 1100), "link_ack 6");
  EXPECT_EQ(take(s, 1100), "none");
  s.owe_ack(9, false, 1200);
  s.owe_nak(10);
  s.owe_ack(11, true, 1210);  // ack_every reached: due now
  EXPECT_EQ(take(s, 1210), "link_nak 10");
  EXPECT_EQ(take(s, 1210), "link_ack 11");
  EXPECT_EQ(s.link_acks_sent(), 2u);
  EXPECT_EQ(s.link_naks_sent(), 1u);
}

TEST_F(RetrySenderTest, AnAckForANumberNotGivenOutIsIgnored) {
  RetrySender s(params_, pool_, "l");
  send_new(s, 0, 0);
  s.on_ack(7, 10);  // not yet sent
  EXPECT_EQ(pool_.in_use(), 1u);
  s.on_ack(0, 20);
  EXPECT_EQ(pool_.in_use(), 0u);
}

// link.retry.ack_piggyback: an owed ACK, due or not, rides on the next
// message sent; alone only once due with nothing to ride on.
TEST_F(RetrySenderTest, WithPiggybackingAnOwedAckRidesOnTheNextMessage) {
  params_.ack_piggyback = true;
  RetrySender s(params_, pool_, "l");
  s.owe_ack(5, false, 1000);
  s.owe_ack(6, true, 1010);  // due now, and yet not urgent: it waits for a message
  EXPECT_EQ(take(s, 1010), "none");
  Payload& data = s.admit(packet(256, 0), 1010);
  s.carry_ack(data);
  EXPECT_TRUE(info_of(data).carries_link_ack);
  EXPECT_EQ(info_of(data).link_ack, 6);
  EXPECT_EQ(s.take_due_ack(2000), nullptr);  // no longer owed
  EXPECT_EQ(s.next_deadline(), kNever);
  Payload& next = s.admit(packet(256, 1), 1020);
  s.carry_ack(next);
  EXPECT_FALSE(info_of(next).carries_link_ack);  // nothing owed: the field says so
  EXPECT_EQ(s.link_acks_carried(), 1u);
  EXPECT_EQ(s.link_acks_sent(), 0u);
  data.release();
  next.release();
}

TEST_F(RetrySenderTest, WithPiggybackingADueAckWithNothingToRideOnGoesAlone) {
  params_.ack_piggyback = true;
  RetrySender s(params_, pool_, "l");
  s.owe_nak(3);
  s.owe_ack(7, false, 1000);
  EXPECT_EQ(take(s, 1200), "link_nak 3");  // NAKs still go at once
  EXPECT_EQ(s.take_due_ack(1099), nullptr);
  Payload* ack = s.take_due_ack(1100);
  ASSERT_NE(ack, nullptr);
  EXPECT_EQ(control_of(*ack).kind, ControlKind::link_ack);
  EXPECT_EQ(control_of(*ack).units, 7u);
  ack->release();
  EXPECT_EQ(s.link_acks_sent(), 1u);
}

TEST_F(RetrySenderTest, WithoutPiggybackingNoAckRides) {
  RetrySender s(params_, pool_, "l");
  s.owe_ack(5, false, 1000);
  Payload& data = s.admit(packet(256, 0), 1000);
  info_of(data).carries_link_ack = true;  // left over from the link before
  s.carry_ack(data);
  EXPECT_FALSE(info_of(data).carries_link_ack);
  EXPECT_EQ(take(s, 1100), "link_ack 5");
  data.release();
}

// A carried ACK names its message by 16 bits: it releases the right one
// across many wraps of those bits, and a stale one releases nothing.
TEST_F(RetrySenderTest, ACarriedAckReleasesByTheLow16BitsAcrossWraps) {
  RetrySender s(params_, pool_, "l");
  for (uint32_t i = 0; i < 200000; ++i) {
    const uint32_t seq = send_new(s, static_cast<uint16_t>(i), i, 100).first;
    ASSERT_EQ(seq, i);
    if (i % 5 == 4) {
      s.on_carried_ack(static_cast<uint16_t>(i - 1), i);  // all but the last
      ASSERT_EQ(pool_.in_use(), 1u) << i;
      s.on_carried_ack(static_cast<uint16_t>(i - 3), i);  // stale: covered already
      ASSERT_EQ(pool_.in_use(), 1u) << i;
    }
  }
  s.on_carried_ack(static_cast<uint16_t>(199999), 300000);
  EXPECT_EQ(pool_.in_use(), 0u);
  EXPECT_EQ(s.timeout_at(), kNever);
}

}  // namespace
}  // namespace fabric
