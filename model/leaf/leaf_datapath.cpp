// Leaf: the data path. Crossbar inputs cut granted copies into packets, one
// per interface slot; packets to another leaf are sprayed over the uplink
// queues; packets for this leaf's ports pass the crossbar output into the
// egress buffer, where they are reassembled and forwarded to the CNA.
#include <algorithm>

#include "model/core/sim_time.h"
#include "model/leaf/leaf.h"
#include "model/leaf/segmentation.h"

namespace fabric {


void Leaf::crossbar_step(int k) {
  CrossbarInput& in = inputs_[k];
  const Picos now = now_ps();
  if (now < in.free_at) {
    in.wakeup->at(in.free_at);
    return;
  }
  if (!in.sending) {
    while (!in.ready.empty()) {
      const uint32_t v = in.ready.front();
      in.ready.pop_front();
      Voq& q = ingress_[k].voq(v);
      q.listed_ready = false;
      if (!ingress_[k].head_covered(q)) continue;
      std::tie(in.slot, in.copy_seq) = ingress_[k].start_copy(v);
      in.voq = v;
      in.next_segment = 0;
      in.sending = true;
      break;
    }
    if (!in.sending) return;
  }
  if (!emit_segment(k)) return;  // blocked: woken when an uplink queue has room
  in.wakeup->at(in.free_at);
}

bool Leaf::emit_segment(int k) {
  CrossbarInput& in = inputs_[k];
  Voq& q = ingress_[k].voq(in.voq);
  const StoredFrame& f = ingress_[k].frame(in.slot);
  const bool local = is_local(q.target_leaf);
  int uplink = -1;
  if (!local) {
    uplink = spray_->choose(uplink_depth_, params_.uplink_queue_packets);
    if (uplink < 0) {
      in.blocked = true;
      ++blocked_inputs_;
      return false;
    }
  }
  const uint32_t bytes = segment_bytes(f.bytes, params_.packet_bytes, in.next_segment);
  Payload& m = pool_.acquire(MessageKind::packet, bytes);
  FabricPacket& p = packet_of(m);
  p.frame = f.frame;
  p.flow = f.flow;
  p.src = port(k);
  p.target = q.target;
  p.target_leaf = q.target_leaf;
  p.vl = q.vl;
  p.priority = f.priority;
  p.index = in.next_segment;
  p.count = segment_count(f.bytes, params_.packet_bytes);
  p.frame_bytes = f.bytes;
  p.copy_seq = in.copy_seq;
  p.created = f.created;

  const Picos now = now_ps();
  const Picos transfer = to_ps(params_.cycle) * crossbar_cycles(bytes, params_.crossbar_bytes_per_cycle);
  in.free_at = now + transfer;
  if (local) {
    internal_.push(now + to_ps(params_.traversal), m);
  } else {
    info_of(m).ready_at = now + transfer + to_ps(params_.traversal);
    uplinks_[uplink].packets.push_back(&m);
    ++uplink_depth_[uplink];
    uplink_tx(uplink).kick();
  }
  if (++in.next_segment == p.count) {
    in.sending = false;
    list_if_ready(k, in.voq);
  }
  return true;
}

void Leaf::wake_blocked_inputs() {
  if (blocked_inputs_ == 0) return;
  blocked_inputs_ = 0;
  for (int k = 0; k < users_; ++k) {
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
  const bool ready = egress_[k].on_packet(p, entered);
  packet.release();
  if (ready) user_tx(k).kick();
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
  send_control(ControlKind::ack, port(k), copy.src, copy.vl, 0, 1);
}

}  // namespace fabric
