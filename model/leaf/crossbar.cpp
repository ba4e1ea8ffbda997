#include "model/leaf/crossbar.h"

#include <algorithm>

#include "model/core/sim_time.h"
#include "model/leaf/fabric_injection.h"
#include "model/leaf/ingress_unit.h"
#include "model/leaf/multicast_engine.h"
#include "model/leaf/retransmit_unit.h"
#include "model/leaf/segmentation.h"

namespace fabric {

Crossbar::Crossbar(const LeafLayout& layout, const LeafParams& params, EventQueue& events, const Wiring& wiring)
    : layout_(layout), params_(params), wiring_(wiring), inputs_(layout.ports) {
  for (int k = 0; k < layout.ports; ++k) {
    inputs_[k].share = InputShare(params.multicast_weight);
    inputs_[k].wakeup = std::make_unique<Wakeup>(events, [this, k] { step(k); });
  }
}

void Crossbar::offer(int k, uint32_t voq) {
  LeafIngress& ingress = wiring_.ingress.port(k);
  Voq& q = ingress.voq(voq);
  if (q.marks.listed_ready || q.marks.streaming || !ingress.head_covered(q)) return;
  if (wiring_.multicast.suspended(k, voq)) {
    q.marks.parked = true;  // offered again when the sync CAM resumes it
    return;
  }
  if (ingress.frame(q.waiting.front()).multicast) {
    wiring_.multicast.start_stream(k, voq);
    return;
  }
  q.marks.listed_ready = true;
  Input& in = inputs_[k];
  in.ready.push_back(voq);
  if (!in.sending) in.wakeup->at(now_ps());
}

void Crossbar::resend(int k, uint32_t voq, uint32_t copy_seq) {
  inputs_[k].resend.emplace_back(voq, copy_seq);
  wake_when_free(k);
}

void Crossbar::wake_when_free(int k) { inputs_[k].wakeup->at(std::max(now_ps(), inputs_[k].free_at)); }

void Crossbar::step(int k) {
  Input& in = inputs_[k];
  const Picos now = now_ps();
  if (now < in.free_at) {
    in.wakeup->at(in.free_at);
    return;
  }
  if (in.resending && !resend_still_due(k)) in.sending = in.resending = false;  // acknowledged meanwhile
  const bool unicast = in.sending || take_unicast_copy(k);
  MulticastEngine& multicast = wiring_.multicast;
  const int stream = multicast.has_streams(k) ? multicast.payload_stream(k, now) : -1;
  if (stream < 0 && multicast.has_streams(k)) multicast.check_a_wake_is_coming(k);
  if (!unicast && stream < 0) return;
  bool send_multicast = stream >= 0 && (!unicast || in.share.pick() == InputShare::multicast);
  // Cut-through: a packet crosses once it is in the ingress buffer. While
  // the chosen one is still arriving, the other class may go.
  Picos in_at = packet_in_at(k, send_multicast, stream);
  if (in_at > now && unicast && stream >= 0) {
    const Picos other = packet_in_at(k, !send_multicast, stream);
    if (other <= now) send_multicast = !send_multicast;
    in_at = std::min(in_at, other);
  }
  if (in_at > now) {
    in.wakeup->at(in_at);
    return;
  }
  const uint32_t bytes = send_multicast ? emit_stream_payload(k, stream) : emit_segment(k);
  if (bytes == 0) return;  // blocked: woken when an uplink queue has room
  if (stream >= 0)         // a unicast packet alone needs no bookkeeping: idleness earns no credit
    in.share.served(send_multicast ? InputShare::multicast : InputShare::unicast, bytes,
                    send_multicast ? unicast : true);
  in.wakeup->at(in.free_at);
}

Picos Crossbar::packet_in_at(int k, bool multicast, int stream) {
  LeafIngress& ingress = wiring_.ingress.port(k);
  uint32_t slot = inputs_[k].slot;
  uint16_t segment = inputs_[k].next_segment;
  if (multicast) {
    const CopyStream st = wiring_.multicast.stream(k, stream);
    slot = st.slot;
    segment = st.next_segment;
  }
  const StoredFrame& f = ingress.frame(slot);
  if (f.arrival.last_byte <= now_ps()) return f.arrival.last_byte;  // the usual case: the frame is whole
  return f.arrival.packet_in_at(segment, params_.packet_bytes, f.bytes, params_.cut_through);
}

bool Crossbar::take_unicast_copy(int k) {
  Input& in = inputs_[k];
  if (!in.resend.empty() && take_resend(k)) return true;
  LeafIngress& ingress = wiring_.ingress.port(k);
  while (!in.ready.empty()) {
    const uint32_t v = in.ready.front();
    in.ready.pop_front();
    Voq& q = ingress.voq(v);
    q.marks.listed_ready = false;
    if (!ingress.head_covered(q)) continue;
    std::tie(in.slot, in.copy_seq) = ingress.start_copy(v, now_ps());
    wiring_.retransmit.arm(k, v, in.copy_seq);
    in.voq = v;
    in.next_segment = 0;
    in.sending = true;
    return true;
  }
  return false;
}

bool Crossbar::take_resend(int k) {
  Input& in = inputs_[k];
  LeafIngress& ingress = wiring_.ingress.port(k);
  while (!in.resend.empty()) {
    const auto [voq, copy_seq] = in.resend.front();
    in.resend.pop_front();
    const std::optional<uint32_t> slot = ingress.in_flight_slot(voq, copy_seq);
    if (!slot) continue;  // its ACK came while it waited
    in.voq = voq;
    in.slot = *slot;
    in.copy_seq = copy_seq;
    in.next_segment = 0;
    in.sending = in.resending = true;
    return true;
  }
  return false;
}

bool Crossbar::resend_still_due(int k) const {
  const Input& in = inputs_[k];
  return wiring_.ingress.port(k).in_flight_slot(in.voq, in.copy_seq).has_value();
}

void Crossbar::block(int k) {
  inputs_[k].blocked = true;
  ++blocked_inputs_;
}

uint32_t Crossbar::emit_segment(int k) {
  Input& in = inputs_[k];
  LeafIngress& ingress = wiring_.ingress.port(k);
  const Voq& q = ingress.voq(in.voq);
  const StoredFrame& f = ingress.frame(in.slot);
  int uplink;
  if (!wiring_.injection.route(q, uplink)) {
    block(k);
    return 0;
  }
  const uint32_t bytes = segment_bytes(f.bytes, params_.packet_bytes, in.next_segment);
  const Picos transfer = layout_.cycle_ps * crossbar_cycles(bytes, params_.crossbar_bytes_per_cycle);
  in.free_at = now_ps() + transfer;
  wiring_.injection.launch(k, q, f, in.next_segment, in.copy_seq, uplink, transfer);
  if (++in.next_segment == f.units) {
    in.sending = in.resending = false;
    offer(k, in.voq);
  }
  return bytes;
}

uint32_t Crossbar::emit_stream_payload(int k, int s) {
  MulticastEngine& multicast = wiring_.multicast;
  const CopyStream st = multicast.stream(k, s);
  LeafIngress& ingress = wiring_.ingress.port(k);
  const Voq& q = ingress.voq(st.voq);
  int uplink;
  if (!wiring_.injection.route(q, uplink)) {
    block(k);
    return 0;
  }
  const StoredFrame& f = ingress.frame(st.slot);
  const uint32_t bytes = segment_bytes(f.bytes, params_.packet_bytes, st.next_segment);
  const uint32_t cycles = crossbar_cycles(bytes, params_.crossbar_bytes_per_cycle);
  const Picos now = now_ps();
  const Picos transfer = layout_.cycle_ps * cycles;
  multicast.on_payload_packet(k, st, cycles, now);
  inputs_[k].free_at = now + transfer;
  wiring_.injection.launch(k, q, f, st.next_segment, st.copy_seq, uplink, transfer);
  multicast.payload_packet_sent(k, s, now + transfer);
  return bytes;
}

void Crossbar::on_uplink_room() {
  wiring_.multicast.on_uplink_room();
  if (blocked_inputs_ == 0) return;
  blocked_inputs_ = 0;
  const Picos now = now_ps();
  // Woken at the same time, the inputs run in the order they are woken and
  // the first takes the room: the order turns, so that no port of the leaf
  // always wins an uplink over its neighbours (issue 50: with 16 spines
  // port 0 of every leaf got 94 Gb/s and port 4 got 42).
  int first = -1;
  for (int i = 0; i < layout_.ports; ++i) {
    const int k = (first_woken_ + i) % layout_.ports;
    if (!inputs_[k].blocked) continue;
    if (first < 0) first = k;
    inputs_[k].blocked = false;
    inputs_[k].wakeup->at(now);
  }
  first_woken_ = (first + 1) % layout_.ports;  // round robin over the blocked inputs
}

}  // namespace fabric
