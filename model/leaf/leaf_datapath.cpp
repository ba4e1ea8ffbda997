// Leaf: the data path. Crossbar inputs cut granted copies into packets, one
// per interface slot; packets to another leaf are sprayed over the uplink
// queues; packets for this leaf's ports pass the crossbar output into the
// egress buffer, where they are reassembled and forwarded to the CNA.
#include <algorithm>

#include "model/core/sim_time.h"
#include "model/leaf/leaf.h"
#include "model/leaf/segmentation.h"

namespace fabric {


// The port's own interface (its crossbar input) moves one packet per step:
// the next packet of the unicast copy it is sending, or the next payload
// packet of a multicast copy, the two shared by packet-size-aware weighted
// round robin (mechanism 9).
void Leaf::crossbar_step(int k) {
  CrossbarInput& in = inputs_[k];
  const Picos now = now_ps();
  if (now < in.free_at) {
    in.wakeup->at(in.free_at);
    return;
  }
  if (in.resending && !resend_still_due(k)) in.sending = in.resending = false;  // acknowledged meanwhile
  const bool unicast = in.sending || take_unicast_copy(k);
  const int stream = mc_[k].streams.empty() ? -1 : payload_stream(k, now);
  if (!unicast && stream < 0) return;
  const bool multicast = stream >= 0 && (!unicast || mc_[k].share.pick() == InputShare::multicast);
  const uint32_t bytes = multicast ? emit_stream_payload(k, stream) : emit_segment(k);
  if (bytes == 0) return;  // blocked: woken when an uplink queue has room
  if (stream >= 0)  // a unicast packet alone needs no bookkeeping: idleness earns no credit
    mc_[k].share.served(multicast ? InputShare::multicast : InputShare::unicast, bytes, multicast ? unicast : true);
  in.wakeup->at(in.free_at);
}

bool Leaf::take_unicast_copy(int k) {
  CrossbarInput& in = inputs_[k];
  if (!in.resend.empty() && take_resend(k)) return true;
  while (!in.ready.empty()) {
    const uint32_t v = in.ready.front();
    in.ready.pop_front();
    Voq& q = ingress_[k].voq(v);
    q.listed_ready = false;
    if (!ingress_[k].head_covered(q)) continue;
    std::tie(in.slot, in.copy_seq) = ingress_[k].start_copy(v);
    arm_retransmit(k, v, in.copy_seq);
    in.voq = v;
    in.next_segment = 0;
    in.sending = true;
    return true;
  }
  return false;
}

bool Leaf::route(const Voq& q, int& uplink) {
  uplink = -1;
  if (is_local(q.target_leaf)) return true;
  uplink = spray_->choose(uplink_depth_, params_.uplink_queue_packets);
  return uplink >= 0;
}

uint32_t Leaf::emit_segment(int k) {
  CrossbarInput& in = inputs_[k];
  Voq& q = ingress_[k].voq(in.voq);
  const StoredFrame& f = ingress_[k].frame(in.slot);
  int uplink;
  if (!route(q, uplink)) {
    in.blocked = true;
    ++blocked_inputs_;
    return 0;
  }
  const uint32_t bytes = segment_bytes(f.bytes, params_.packet_bytes, in.next_segment);
  const Picos transfer = cycle_ps_ * crossbar_cycles(bytes, params_.crossbar_bytes_per_cycle);
  in.free_at = now_ps() + transfer;
  launch_packet(k, q, f, in.next_segment, in.copy_seq, uplink, transfer);
  if (++in.next_segment == f.units) {
    in.sending = in.resending = false;
    list_if_ready(k, in.voq);
  }
  return bytes;
}

void Leaf::launch_packet(int k, const Voq& q, const StoredFrame& f, uint16_t segment, uint32_t copy_seq, int uplink,
                         Picos transfer) {
  const uint32_t bytes = segment_bytes(f.bytes, params_.packet_bytes, segment);
  Payload& m = pool_.acquire(MessageKind::packet, bytes);
  FabricPacket& p = packet_of(m);
  p.frame = f.frame;
  p.flow = f.flow;
  p.src = port(k);
  p.target = q.target;
  p.target_leaf = q.target_leaf;
  p.vl = q.vl;
  p.priority = f.priority;
  p.index = segment;
  p.count = f.units;
  p.frame_bytes = f.bytes;
  p.copy_seq = copy_seq;
  p.created = f.created;
  p.levels = f.levels;
  p.mid = f.mid;
  p.transport = f.transport;
  p.transport_seq = f.transport_seq;

  const Picos now = now_ps();
  if (uplink < 0) {  // a one-to-one link to a port of this leaf
    internal_.push(now + to_ps(params_.traversal), m);
    return;
  }
  info_of(m).ready_at = now + transfer + to_ps(params_.traversal);
  uplinks_[uplink].packets.push_back(&m);
  ++uplink_depth_[uplink];
  uplink_tx(uplink).kick();
}

void Leaf::wake_blocked_inputs() {
  if (mc_blocked_) {
    mc_blocked_ = false;
    kick_multicast_clock(now_ps());
  }
  if (blocked_inputs_ == 0) return;
  blocked_inputs_ = 0;
  for (int k = 0; k < ports_; ++k) {
    if (!inputs_[k].blocked) continue;
    inputs_[k].blocked = false;
    inputs_[k].wakeup->at(now_ps());
  }
}

void Leaf::enter_egress(int k, Payload& packet, Picos arrival) {
  const FabricPacket& p = packet_of(packet);
  const Picos transfer =
      to_ps(params_.cycle) * crossbar_cycles(info_of(packet).wire_bytes, params_.crossbar_bytes_per_cycle);
  const Picos entered = std::max(arrival, crossbar_out_free_[k]) + transfer;
  crossbar_out_free_[k] = entered;
  const LeafEgress::Arrival outcome = egress_[k].on_packet(p, entered);
  if (outcome == LeafEgress::Arrival::duplicate) {
    resend_ack(k, p);
    packet.release();
    return;
  }
  const bool ready = outcome == LeafEgress::Arrival::ready;
  if (ready && params_.qcn_egress && k != surrogate_) sample_egress_cp(k, p);
  packet.release();
  if (!ready) return;
  if (k == surrogate_) {
    loop_wakeup_->at(std::max(now_ps(), loop_free_at_));
  } else {
    user_tx(k).kick();
  }
}

void Leaf::prefetch_next(int tx_index) const {
  if (tx_index >= users_) {
    const UplinkQueue& u = uplinks_[tx_index - users_];
    __builtin_prefetch(&u);
    if (!u.packets.empty()) prefetch_message(u.packets.front());
    return;
  }
  __builtin_prefetch(&egress_[tx_index]);
}

TxSource::Pull Leaf::next_data(int tx_index, Picos not_after) {
  const Picos now = now_ps();
  if (tx_index >= users_) {
    UplinkQueue& u = uplinks_[tx_index - users_];
    if (u.packets.empty()) return {};
    Payload* head = u.packets.front();
    if (info_of(*head).ready_at > not_after) return {nullptr, info_of(*head).ready_at};
    u.packets.pop_front();
    --uplink_depth_[tx_index - users_];
    wake_blocked_inputs();
    return {head, kNever};
  }
  const int k = tx_index;
  if (forwarding_[k]) SC_REPORT_FATAL(name(), "egress forwarded a copy before the previous one left");
  LeafEgress::Next next = egress_[k].next_copy(now);
  if (!next.copy) return {nullptr, next.retry_at};
  const CopyMeta& c = next.copy->meta;
  Payload& m = pool_.acquire(MessageKind::frame, c.bytes);
  EthernetFrame& f = frame_of(m);
  static_cast<FrameHeader&>(f) = c;
  f.dst_mac = mac_of(port(k));
  forwarding_[k] = next.copy;
  return {&m, kNever};
}

void Leaf::transmission_done(int tx_index) {
  if (tx_index >= users_) return;
  const int k = tx_index;
  if (!forwarding_[k]) return;  // a PAUSE frame left
  const ForwardedCopy copy = *forwarding_[k];
  forwarding_[k].reset();
  egress_[k].on_forwarded(copy);
  run_arbiter(k);
  send_control(ControlKind::ack, port(k), copy.src, copy.vl, copy.copy_seq + 1, 1);
}

}  // namespace fabric
