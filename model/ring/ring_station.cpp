#include "model/ring/ring_station.h"

#include <string>

#include "model/core/sim_time.h"
#include "model/invariants/invariant_broken.h"
#include "model/protocol/ethernet_frame.h"

namespace fabric {

RingStation::RingStation(sc_core::sc_module_name name, int position, int station, const ring::RingLayout& layout,
                         const std::vector<ring::RingGroup>& groups, const RingStationParams& params,
                         ring::RingFrameStore& frames, PayloadPool& pool, EventQueue& events)
    : sc_module(name),
      tx("tx", *this, 0, pool, ethernet_tx_params(), events),
      rx("rx", *this, 0, events),
      station_(station),
      params_(params),
      protocol_(position, station, layout, params.buffers, groups, params.free_on_receipt, params.own_frames),
      pacer_(params.pacer, params.permit_interval),
      frames_(frames),
      pool_(pool),
      events_(events),
      received_(PortId(static_cast<uint32_t>(station))) {
  if (params.q_adaptive && protocol_.sends()) {
    adaptive_.emplace(params.buffers, params.members);
    protocol_.set_limit(adaptive_->q());
  } else {
    protocol_.set_limit(params.q);
  }
}

void RingStation::attach_host(std::unique_ptr<ring::PacketSource> arrivals) {
  arrivals_ = std::move(arrivals);
  const Picos first = arrivals_->next();
  if (first != kNever) events_.schedule(first, *this, &arrival_tag_);
}

void RingStation::receive(int, Payload& payload) {
  events_.schedule(now_ps() + params_.latency, *this, &payload);  // the header through the station
}

void RingStation::on_wake(void* item) {
  const Picos now = now_ps();
  if (item == &arrival_tag_) {
    host_arrival(now);
  } else if (item == &pacer_tag_) {
    pacer_wake_at_ = kNever;
    serve(now, now);
  } else {
    take(*static_cast<Payload*>(item), now);
  }
}

void RingStation::host_arrival(Picos now) {
  ++offered_;
  const uint64_t packet = next_packet_++;
  if (protocol_.waiting() >= params_.host_queue) {  // the host's queue is full: the packet is lost
    ++host_drops_;
    if (observer_) observer_->on_host_drop(packet, now);
  } else {
    protocol_.host_packet(packet, now);
  }
  pacer_.host_arrival(now);
  const Picos next = arrivals_->next();
  if (next != kNever) events_.schedule(next, *this, &arrival_tag_);
  serve(now, now);
}

void RingStation::check_reserved(const ring::RingFrame& f, Picos now) {
  ++invariants_checked_;
  if (protocol_.buffers().holds(f.priority)) return;
  break_invariant(invariant::kReserved, name(), now,
                  "packet " + std::to_string(f.packet) + " of station " + std::to_string(f.origin) + " (group " +
                      std::to_string(f.group) + ") arrived with no buffer reserved for it here (" +
                      std::to_string(protocol_.buffers().free()) + " of " +
                      std::to_string(protocol_.buffers().capacity()) +
                      " free): it was multicast before its reservation was complete");
}

void RingStation::take(Payload& payload, Picos now) {
  const uint64_t slot = payload.get_address();
  ring::RingFrame& f = frames_.at(slot);
  // A packet's delivery here is recorded once its last byte is in.
  const Picos last_byte = f.kind == ring::FrameKind::data ? frame_of(payload).arrival.last_byte : now;
  if (protocol_.receives_packet(f)) check_reserved(f, now);
  if (protocol_.receive(f)) {
    transit_.push_back(&payload);
    tx.kick();
  } else {
    frames_.release(slot);
    payload.release();
  }
  serve(now, std::max(now, last_byte));
}

void RingStation::serve(Picos now, Picos deliveries_at) {
  const int used = protocol_.buffers().capacity() - protocol_.buffers().free();
  if (used > max_used_) max_used_ = used;
  protocol_.take_notices(notices_);
  for (const ring::SenderNotice& n : notices_) {
    switch (n.kind) {
      case ring::SenderNotice::Kind::authorised:
        attempts_ += static_cast<uint64_t>(n.attempts);
        if (observer_) observer_->on_sent(n.packet, n.created, n.attempts, now);
        if (adaptive_ && n.recovered) adaptive_->on_recovered_send();
        break;
      case ring::SenderNotice::Kind::failed:
        if (adaptive_) adaptive_->on_failure();
        break;
      case ring::SenderNotice::Kind::retracted:
        if (observer_) observer_->on_retract(now);
        if (adaptive_) adaptive_->on_failure();
        break;
    }
  }
  if (adaptive_ && now - last_observed_ >= params_.observe_every) {
    last_observed_ = now;
    adaptive_->observe(static_cast<int>(protocol_.spq() + protocol_.waiting()), protocol_.buffers().holders(), used);
  }
  if (adaptive_ && adaptive_->q() != protocol_.limit()) protocol_.set_limit(adaptive_->q());
  const bool own_full = protocol_.buffers().free() == 0;
  protocol_.take_ready_tickets(ready_);
  for (const auto& r : ready_) pacer_.offer(protocol_.priority_of(r.vts), r.attempt, now, own_full);
  pacer_.take_released(now, released_);
  for (const ring::Priority& p : released_) protocol_.send_ticket(p.vts);
  wake_pacer(pacer_.next_release());
  record_deliveries(deliveries_at);
  if (protocol_.has_frame()) tx.kick();
}

void RingStation::record_deliveries(Picos at) {
  at = std::max(at, last_delivery_);  // the host takes packets in order
  last_delivery_ = at;
  protocol_.take_deliveries(deliveries_out_);
  for (const ring::Delivery& d : deliveries_out_) {
    ++deliveries_;
    if (observer_) observer_->on_delivery(d.source, d.packet, d.created, at);
    received_.add(FlowId(static_cast<uint32_t>(d.source)), ring::kPayloadBytes, at, at - d.created);
  }
}

void RingStation::wake_pacer(Picos at) {
  if (at == kNever || at >= pacer_wake_at_) return;
  pacer_wake_at_ = at;
  events_.schedule(at, *this, &pacer_tag_);
}

TxSource::Pull RingStation::next_data(int, Picos) {
  if (!transit_.empty()) {  // register insertion: transit first
    Payload* p = transit_.front();
    transit_.pop_front();
    return {p, kNever};
  }
  std::optional<ring::RingFrame> f = protocol_.take_frame();
  if (!f) return {};
  const uint32_t bytes = ring::wire_bytes(*f);
  Payload& m = acquire_frame(pool_,
                             {ring_packet_id(station_, f->packet), FlowId(static_cast<uint32_t>(station_)),
                              PortId(static_cast<uint32_t>(station_)), bytes, 0, f->created},
                             0);
  m.set_address(frames_.put(*f));
  record_deliveries(now_ps());  // a packet of ours, delivered to our host as it goes (and any it let through)
  return {&m, kNever};
}

}  // namespace fabric
