#pragma once
// The crossbar inputs of a leaf's ports (mechanism 9). Each port's input
// moves one packet per step (36 B per 454 MHz cycle): the next packet of
// the unicast copy it is cutting, or the next payload packet of one of the
// port's multicast copy streams (a first copy, a cache miss, or any copy
// with the cache off), the two shared by packet-size-aware weighted round
// robin. End-to-end retransmissions are cut before new copies. A VOQ whose
// head copy is covered by credit is offered here: a unicast copy joins the
// input's ready list, a multicast copy becomes a stream of the multicast
// engine, a VOQ suspended by VOQ sync is parked until it resumes.
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "model/core/wakeup.h"
#include "model/leaf/input_share.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_params.h"

namespace fabric {

class IngressUnit;
class MulticastEngine;
class FabricInjection;
class RetransmitUnit;

class Crossbar {
 public:
  struct Wiring {
    IngressUnit& ingress;
    MulticastEngine& multicast;
    FabricInjection& injection;
    RetransmitUnit& retransmit;
  };
  Crossbar(const LeafLayout& layout, const LeafParams& params, EventQueue& events, const Wiring& wiring);

  // VOQ `voq` of port k may have a head copy ready to send.
  void offer(int k, uint32_t voq);
  // Copy `copy_seq` of the VOQ is due again (end-to-end recovery): cut it
  // ahead of new copies.
  void resend(int k, uint32_t voq, uint32_t copy_seq);
  // Port k's input, once free, has a multicast payload packet to move.
  void wake_when_free(int k);
  // Whether port k's input is idle now: nothing being cut, not blocked, free.
  bool idle(int k, Picos now) const {
    const Input& in = inputs_[k];
    return !in.sending && !in.blocked && in.free_at <= now;
  }
  void wake(int k, Picos at) { inputs_[k].wakeup->at(at); }
  // An uplink queue has room again: inputs and multicast headers blocked on
  // a full one try again.
  void on_uplink_room();

 private:
  struct Input {
    std::deque<uint32_t> ready;  // VOQs whose head copy is covered by credit
    bool sending = false;        // a unicast copy is being cut into packets
    uint32_t voq = 0, slot = 0, copy_seq = 0;
    uint16_t next_segment = 0;
    Picos free_at = 0;
    bool blocked = false;                              // waiting for room in an uplink queue
    bool resending = false;                            // the copy being cut is an end-to-end retransmission
    std::deque<std::pair<uint32_t, uint32_t>> resend;  // (VOQ, copy_seq) to retransmit, before new copies
    InputShare share;
    std::unique_ptr<Wakeup> wakeup;
  };

  void step(int k);
  bool take_unicast_copy(int k);
  // When the next packet of the unicast copy being cut, or of multicast
  // stream `stream`, is in the ingress buffer.
  Picos packet_in_at(int k, bool multicast, int stream);
  bool take_resend(int k);
  bool resend_still_due(int k) const;
  // Each returns the bytes moved, 0 when blocked.
  uint32_t emit_segment(int k);
  uint32_t emit_stream_payload(int k, int stream);
  void block(int k);

  const LeafLayout& layout_;
  const LeafParams& params_;
  Wiring wiring_;
  std::vector<Input> inputs_;
  int blocked_inputs_ = 0;  // inputs waiting for room in an uplink queue
  int first_woken_ = 0;     // the input woken first when room comes: after the last one woken first
};

}  // namespace fabric
