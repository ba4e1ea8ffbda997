#include "model/leaf/egress_unit.h"

#include <algorithm>
#include <systemc>

#include "model/core/sim_time.h"
#include "model/leaf/congestion_points.h"
#include "model/leaf/fdb.h"
#include "model/leaf/segmentation.h"
#include "model/leaf/surrogate_loop.h"

namespace fabric {

EgressUnit::EgressUnit(const LeafLayout& layout, const LeafParams& params, const LeafParams& surrogate_params,
                       PayloadPool& pool, LeafLinks& links, const Wiring& wiring)
    : layout_(layout),
      params_(params),
      pool_(pool),
      links_(links),
      wiring_(wiring),
      output_free_at_(layout.ports, 0),
      forwarding_(layout.users) {
  for (int k = 0; k < layout.ports; ++k)
    ports_.emplace_back(layout.port(k), k == layout.surrogate ? surrogate_params : params);
}

void EgressUnit::enter(int k, Payload& packet, Picos arrival) {
  const FabricPacket& p = packet_of(packet);
  const Picos transfer =
      to_ps(params_.cycle) * crossbar_cycles(info_of(packet).wire_bytes, params_.crossbar_bytes_per_cycle);
  const Picos entered = std::max(arrival, output_free_at_[k]) + transfer;
  output_free_at_[k] = entered;
  const LeafEgress::Arrival outcome = ports_[k].on_packet(p, entered);
  if (outcome == LeafEgress::Arrival::duplicate) {
    // A retransmitted copy already forwarded: its ACK was lost, so the
    // cumulative ACK goes again (once, on the copy's last packet).
    if (p.index + 1 == p.count) {
      const uint32_t forwarded = ports_[k].forwarded(p.src, p.vl);
      if (p.copy_seq < forwarded) wiring_.control.send(ControlKind::ack, layout_.port(k), p.src, p.vl, forwarded, 1);
    }
    packet.release();
    return;
  }
  const bool ready = outcome == LeafEgress::Arrival::ready;
  const bool surrogate = k == layout_.surrogate;
  if (ready && params_.qcn_egress && !surrogate) wiring_.congestion.sample_egress(k, p);
  packet.release();
  if (!ready) return;
  if (surrogate) {
    wiring_.loop.on_copy_ready();
  } else {
    links_.user_tx(k).kick();
  }
}

void EgressUnit::on_request(const ControlMessage& c) {
  const int k = layout_.geometry.local_index(c.to);
  ports_[k].on_request(c.from, c.vl, c.units, c.count, c.copies);
  run_arbiter(k);
}

void EgressUnit::on_cancel(const ControlMessage& c) {
  const int k = layout_.geometry.local_index(c.to);
  if (c.withdraw && params_.dropped_credit == LeafParams::DroppedCredit::per_copy) {
    ports_[k].on_withdraw(c.from, c.vl, c.copies.first, c.units);
  } else if (c.withdraw) {
    // What the arbiter had granted already is owed back by the source.
    const uint32_t withdrawn = ports_[k].on_withdraw_units(c.from, c.vl, c.units);
    if (withdrawn < c.units)
      wiring_.control.send(ControlKind::grant, layout_.port(k), c.from, c.vl, c.units - withdrawn, 0, {}, true);
  } else {
    ports_[k].on_cancel(c.vl, c.units);
  }
  run_arbiter(k);
}

TxSource::Pull EgressUnit::next_frame(int k, Picos now) {
  if (forwarding_[k]) SC_REPORT_FATAL(layout_.name.c_str(), "egress forwarded a copy before the previous one left");
  LeafEgress::Next next = ports_[k].next_copy(now);
  if (!next.copy) return {nullptr, next.retry_at};
  const CopyMeta& c = next.copy->meta;
  Payload& m = pool_.acquire(MessageKind::frame, c.bytes);
  EthernetFrame& f = frame_of(m);
  static_cast<FrameHeader&>(f) = c;
  f.dst_mac = mac_of(layout_.port(k));
  forwarding_[k] = next.copy;
  return {&m, kNever};
}

void EgressUnit::transmission_done(int k) {
  if (!forwarding_[k]) return;  // a PAUSE frame left
  const ForwardedCopy copy = *forwarding_[k];
  forwarding_[k].reset();
  copy_left(k, copy);
}

void EgressUnit::copy_left(int k, const ForwardedCopy& copy) {
  ports_[k].on_forwarded(copy);
  run_arbiter(k);
  wiring_.control.send(ControlKind::ack, layout_.port(k), copy.src, copy.vl, copy.copy_seq + 1, 1);
}

void EgressUnit::run_arbiter(int k) {
  grants_.clear();
  ports_[k].arbitrate(grants_);
  for (const EgressGrant& g : grants_)
    wiring_.control.send(ControlKind::grant, layout_.port(k), g.src, g.vl, g.units, g.frames, g.copies);
}

uint64_t EgressUnit::copies_held() const {
  uint64_t n = 0;
  for (const LeafEgress& eg : ports_) n += eg.copies_held();
  return n;
}

}  // namespace fabric
