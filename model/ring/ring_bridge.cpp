#include "model/ring/ring_bridge.h"

#include <algorithm>

#include "model/core/sim_time.h"
#include "model/protocol/ethernet_frame.h"

namespace fabric {

RingBridge::RingBridge(sc_core::sc_module_name name, ring::BridgeProtocol::Side side0, ring::BridgeProtocol::Side side1,
                       const RingBridgeParams& params, ring::RingFrameStore& frames, PayloadPool& pool,
                       EventQueue& events)
    : sc_module(name),
      tx0("tx0", *this, 0, pool, ethernet_tx_params(), events),
      tx1("tx1", *this, 1, pool, ethernet_tx_params(), events),
      rx0("rx0", *this, 0, events),
      rx1("rx1", *this, 1, events),
      protocol_(std::move(side0), std::move(side1), params.buffers),
      params_(params),
      frames_(frames),
      pool_(pool),
      events_(events) {
  if (params.flow_control)
    for (int s = 0; s < 2; ++s) pacers_.emplace_back(params.pacer, params.permit_interval);
  for (int s = 0; s < 2; ++s) side_wake_[static_cast<size_t>(s)] = SideWake{};
  side_wake_[0].bridge = side_wake_[1].bridge = this;
  side_wake_[1].side = 1;
}

void RingBridge::receive(int rx_index, Payload& payload) {
  events_.schedule(now_ps() + params_.latency, side_wake_[static_cast<size_t>(rx_index)], &payload);
}

void RingBridge::take(int side, Payload& payload) {
  const uint64_t slot = payload.get_address();
  if (protocol_.receive(side, frames_.at(slot))) {
    transit_[static_cast<size_t>(side)].push_back(&payload);
    tx(side).kick();
  } else {
    frames_.release(slot);
    payload.release();
  }
  serve(now_ps());
}

void RingBridge::on_wake(void*) {
  pacer_wake_at_ = kNever;
  serve(now_ps());
}

void RingBridge::serve(Picos now) {
  protocol_.take_offered(offered_);
  if (!pacers_.empty())  // the permits follow the vouchers arriving for the ring beyond
    for (const auto& o : offered_) pacers_[static_cast<size_t>(o.exit)].packet_offered(o.sender, o.made);
  protocol_.take_ready(ready_);
  for (const auto& r : ready_) {
    if (pacers_.empty()) {
      protocol_.launch(r.side, r.priority);
      continue;
    }
    pacers_[static_cast<size_t>(r.side)].offer(r.priority, r.attempt, now, false);
  }
  Picos next = kNever;
  for (int s = 0; s < static_cast<int>(pacers_.size()); ++s) {
    pacers_[static_cast<size_t>(s)].take_released(now, released_);
    for (const ring::Priority& p : released_) protocol_.launch(s, p);
    next = std::min(next, pacers_[static_cast<size_t>(s)].next_release());
  }
  if (next != kNever && next < pacer_wake_at_) {
    pacer_wake_at_ = next;
    events_.schedule(next, *this);
  }
  for (int s = 0; s < 2; ++s)
    if (protocol_.has_frame(s)) tx(s).kick();
}

TxSource::Pull RingBridge::next_data(int side, Picos) {
  auto& transit = transit_[static_cast<size_t>(side)];
  if (!transit.empty()) {  // register insertion: transit first
    Payload* p = transit.front();
    transit.pop_front();
    return {p, kNever};
  }
  std::optional<ring::RingFrame> f = protocol_.take_frame(side);
  if (!f) return {};
  const uint32_t bytes = ring::wire_bytes(*f);
  Payload& m = acquire_frame(pool_,
                             {FrameId((uint64_t{static_cast<uint32_t>(f->origin)} << 32) | f->packet),
                              FlowId(static_cast<uint32_t>(std::max(0, f->origin))), PortId(0), bytes, 0, f->created},
                             0);
  m.set_address(frames_.put(*f));
  return {&m, kNever};
}

}  // namespace fabric
