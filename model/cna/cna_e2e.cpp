// CNA: the end-to-end transport's shell (the algorithm is E2eTransport).
// Unicast frames are numbered as they leave; ACK and NAK frames, then frames
// sent again, go ahead of new frames of their priority and wait for its
// PAUSE like them. Every frame sent again is an event 'retransmission'
// (entity cna<N>, its flow, value = its destination port). ACK and NAK
// frames carry flow id kTransportFlow and frame ids with bit 31 set; they
// are not in the frames table (a drop of one is recorded like any drop).
#include "model/cna/cna.h"
#include "model/core/sim_time.h"
#include "model/leaf/fdb.h"

namespace fabric {

void Cna::advance_transport(Picos now) {
  transport_->release_due_acks(now);
  transport_->expire(now);
  transport_->drop_acknowledged_resends();
}

bool Cna::transport_ready(int p) const {
  return transport_ &&
         (transport_->has_reply(static_cast<uint8_t>(p)) || transport_->has_resend(static_cast<uint8_t>(p)));
}

void Cna::number_frame(EthernetFrame& f, const QueuedFrame& q, Picos now) {
  if (!is_cna_mac(q.dst_mac)) return;  // multicast frames are not covered (see README)
  if (!(params_.e2e.priorities >> f.priority & 1)) return;
  f.transport = TransportKind::data;
  f.transport_seq = transport_->on_send(port_of_mac(q.dst_mac), f.priority, q, now);
}

Payload* Cna::next_transport_frame(int p, Picos now) {
  const uint8_t priority = static_cast<uint8_t>(p);
  if (const auto reply = transport_->take_reply(priority)) {
    const QueuedFrame q{FrameId((uint64_t{raw(port_)} << 32) | 0x80000000u | next_reply_seq_++), kTransportFlow,
                        mac_of(reply->to), kTransportAckBytes, now};
    Payload& m = build_frame(q, p);
    frame_of(m).transport = reply->kind;
    frame_of(m).transport_seq = reply->next;
    return &m;
  }
  if (const auto resend = transport_->take_resend(priority, now)) {
    Payload& m = build_frame(resend->frame, p);
    frame_of(m).transport = TransportKind::data;
    frame_of(m).transport_seq = resend->seq;
    if (observer_) observer_->on_retransmission(resend->frame.flow, resend->dst, now);
    return &m;
  }
  return nullptr;  // not reached: transport_ready() said there was one
}

bool Cna::accept_transport(const EthernetFrame& f, Picos now) {
  if (!transport_) return true;
  if (f.transport == TransportKind::data) {
    const E2eTransport::Received r = transport_->on_data(f.src, f.priority, f.transport_seq, now);
    if (r.wake) tx.kick();
    return r.verdict == E2eTransport::Verdict::deliver;
  }
  if (f.transport == TransportKind::ack)
    transport_->on_ack(f.src, f.priority, f.transport_seq);
  else if (transport_->on_nak(f.src, f.priority, f.transport_seq))
    tx.kick();
  return false;
}

}  // namespace fabric
