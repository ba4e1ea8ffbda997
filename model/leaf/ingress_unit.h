#pragma once
// The ingress side of a leaf's ports, in time: frames arriving from a CNA
// (or looped back by the surrogate) are looked up, stored once and queued
// as one header per copy in the port's VOQs (LeafIngress holds that state),
// each copy asking its target's arbiter for credit; drops (with their
// reason), holds and PAUSE changes are told to the leaf's observer
// (LeafObserver); PAUSE goes to the CNA when a lossless pool fills. A
// lossless frame is admitted whole or not at all: one without room waits at
// the port (event 'hold') while its CNA is STOPped, and goes in when ACKs
// free room. Grants and ACKs for the port's copies come back here: a granted
// VOQ is offered to the crossbar, an acknowledged copy frees its header and
// payload.
#include <cstdint>
#include <deque>
#include <ostream>
#include <vector>

#include "model/invariants/pause_obedience.h"
#include "model/leaf/control_path.h"
#include "model/leaf/fdb.h"
#include "model/leaf/leaf_ingress.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_observer.h"
#include "model/leaf/leaf_params.h"
#include "model/multicast/mcbc_table.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

class Crossbar;
class MulticastEngine;
class SurrogateLoop;
class LeafCongestionPoints;

class IngressUnit {
 public:
  struct Wiring {
    ControlPath& control;
    Crossbar& crossbar;
    MulticastEngine& multicast;
    SurrogateLoop& loop;
    LeafCongestionPoints& congestion;
  };
  IngressUnit(const LeafLayout& layout, const LeafParams& params, const LeafParams& surrogate_params, uint64_t seed,
              const Fdb& fdb, const McbcTable& mcbc, LeafLinks& links, const Wiring& wiring);
  // Who hears of each drop, hold and PAUSE change (a LeafProbe), or null.
  void set_observer(LeafObserver* observer) { observer_ = observer; }

  // A frame from the CNA of user port k.
  void on_frame(int k, Payload& frame);
  // A frame the surrogate's egress handed back, one level deeper; it had
  // room (loop_shortage), so it is admitted now.
  void on_handed_back(const EthernetFrame& f);
  // What the surrogate's ingress lacks for that frame (ingress_room.h).
  RoomShortage loop_shortage(const FrameHeader& handed_back) const;
  void on_grant(const ControlMessage& grant);
  void on_ack(const ControlMessage& ack);

  LeafIngress& port(int k) { return ports_[k]; }
  const LeafIngress& port(int k) const { return ports_[k]; }
  uint64_t drops() const { return drops_; }
  // Copies sent on surplus credit (leaf.voq.dropped_copy_credit = keep),
  // over the leaf's ports.
  uint64_t copies_on_surplus_credit() const;
  // Invariant checks made: each copy sent on its own grant, no lossless
  // drop, each user port's paused priorities obeyed.
  uint64_t invariants_checked() const;
  // Per port: remote copies acknowledged, and the sum of the times from
  // their admission to their ACK (how long a copy holds header and payload).
  struct HoldTimes {
    uint64_t copies = 0;
    Picos total = 0;
  };
  const HoldTimes& remote_hold(int k) const { return remote_hold_[static_cast<size_t>(k)]; }
  uint64_t copies_waiting() const;
  // Whether a copy sent from this leaf awaits its ACK.
  bool awaiting_acks() const;
  // One line per VOQ holding copies, at most max_lines (counted down).
  void describe_backlog(std::ostream& out, int& max_lines) const;

 private:
  // Admission of a frame from the CNA, or of one that waited: false when a
  // lossless frame has no room for its payload and every copy's header.
  bool admit(int k, const EthernetFrame& f);
  bool admit_multicast(int k, const EthernetFrame& f, Mid mid);
  HeaderDemand demand_of(const std::vector<PortId>& targets) const;
  // A lossless frame without room waits at the port; STOP goes to the CNA.
  void hold(int k, const EthernetFrame& f);
  // Frames of `priority` that waited go in, in order, while they fit.
  void admit_held(int k, uint8_t priority);
  void drop_frame(int k, const EthernetFrame& f, DropReason reason, int64_t dst);
  // Drop from head: the VOQ's next-to-send copy goes (counted as forwarded
  // for VOQ sync); its granted units go back to the target as a cancel.
  void drop_from_head(int k, uint32_t voq);
  void pay_owed(int k, uint32_t voq);
  // The request of the copy queued last in the VOQ (requests per copy).
  void request_tail(int k, uint32_t voq);
  void check_pause(int k, uint8_t priority);
  void note_hold_times(int k, uint32_t voq, uint32_t through);

  const LeafLayout& layout_;
  const LeafParams& params_;
  const Fdb& fdb_;
  const McbcTable& mcbc_;
  LeafObserver* observer_ = nullptr;
  LeafLinks& links_;
  Wiring wiring_;
  std::deque<LeafIngress> ports_;             // deque: elements never move
  std::vector<PauseObedience> pause_obeyed_;  // by user port
  uint64_t drops_ = 0;
  uint64_t frames_checked_ = 0;         // admissions checked against PAUSE, drops against the class
  std::vector<HoldTimes> remote_hold_;  // by port
};

}  // namespace fabric
