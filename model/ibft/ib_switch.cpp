#include "model/ibft/ib_switch.h"

#include "model/core/sim_time.h"

namespace fabric {

TxPortParams ib_port_params(uint32_t credit_bytes) {
  TxPortParams p;
  p.credits = 1;  // the next device's input buffer: one packet
  p.coalesce_control = false;
  p.control_bytes = credit_bytes;
  p.credit_batch = 1;
  p.credit_delay = 0;
  return p;
}

IbSwitch::IbSwitch(sc_core::sc_module_name name, int index, const IbSwitchParams& params,
                   const ForwardingTables& tables, PayloadPool& pool, EventQueue& events)
    : sc_module(name),
      index_(index),
      params_(params),
      tables_(tables),
      pool_(pool),
      events_(events),
      inputs_(static_cast<size_t>(params.ports)),
      outputs_(static_cast<size_t>(params.ports)) {
  for (Wake::Kind kind : {Wake::route, Wake::tail, Wake::arbitrate})
    for (int k = 1; k <= params.ports; ++k) items_.push_back({kind, k});
  for (int k = 1; k <= params.ports; ++k) {
    const std::string n = std::to_string(k);
    tx_.push_back(
        std::make_unique<TxPort>(("tx" + n).c_str(), *this, k, pool, ib_port_params(params.credit_bytes), events));
    rx_.push_back(std::make_unique<RxPort>(("rx" + n).c_str(), *this, k, events));
    inputs_[static_cast<size_t>(k - 1)].port = k;
  }
  // Credits that arrive on port k are for the packets tx(k) sends.
  for (int k = 1; k <= params.ports; ++k) rx(k).set_credit_sink(tx(k));
}

void IbSwitch::receive(int port, Payload& payload) {
  if (info_of(payload).kind != MessageKind::frame) {  // a flow-control update alone: its credit is taken
    payload.release();
    return;
  }
  Input& in = inputs_[static_cast<size_t>(port - 1)];
  if (in.occupied) SC_REPORT_FATAL(name(), "a packet arrived at an input whose one-packet buffer is full");
  const Picos now = now_ps();
  in.occupied = true;
  in.packet = &payload;
  const FrameArrival& a = frame_of(payload).arrival;
  in.tail = a.last_byte > now ? a.last_byte : now;
  events_.schedule(now + params_.routing, *this, wake(Wake::route, port));
}

void IbSwitch::on_wake(void* item) {
  const Wake& w = *static_cast<const Wake*>(item);
  Input& in = inputs_[static_cast<size_t>(w.port - 1)];
  switch (w.kind) {
    case Wake::route:
      route(in);
      break;
    case Wake::tail:
      in.tail_wake = false;
      free_if_done(in);
      break;
    case Wake::arbitrate:
      arbitrate(w.port);
      break;
  }
}

void IbSwitch::route(Input& in) {
  const int lid = static_cast<int>(frame_of(*in.packet).dst_mac);
  PortSet out = 0;
  if (lid >= kFirstMulticastLid) {
    out = tables_.entry(index_, lid - kFirstMulticastLid);
    if (params_.shared_trees) out &= ~(PortSet{1} << in.port);
  } else {
    out = PortSet{1} << tables_.out_port(index_, lid);
  }
  if (out == 0) SC_REPORT_FATAL(name(), "a packet with no output port in its forwarding entry");
  in.pending = out;
  const Picos now = now_ps();
  // Every input routed at this instant joins the queues before any output
  // picks (an arbitration wake at this instant comes after every routing
  // wake due now, which were scheduled earlier): ties go to the lower port.
  for (int k = 1; k <= params_.ports; ++k) {
    if (!(out >> k & 1)) continue;
    outputs_[static_cast<size_t>(k - 1)].waiting.push(now, in.port);
    events_.schedule(now, *this, wake(Wake::arbitrate, k));
  }
}

void IbSwitch::arbitrate(int port) {
  Output& out = outputs_[static_cast<size_t>(port - 1)];
  if (out.packet || out.waiting.empty()) return;
  move(inputs_[static_cast<size_t>(out.waiting.pop() - 1)], port);
}

void IbSwitch::move(Input& in, int port) {
  const PortSet bit = PortSet{1} << port;
  in.pending &= ~bit;
  // The last copy takes the packet itself; the others are copies of it.
  Payload& copy = in.pending == 0 ? *in.packet : pool_.clone(*in.packet);
  if (in.pending == 0) in.packet = nullptr;
  info_of(copy).ready_at = 0;
  info_of(copy).credits = 0;
  frame_of(copy).arrival = {};  // the next link sets it (cut through)
  Output& out = outputs_[static_cast<size_t>(port - 1)];
  out.packet = &copy;
  ++copies_;
  tx(port).kick();
  free_if_done(in);
}

void IbSwitch::free_if_done(Input& in) {
  if (!in.occupied || in.pending != 0 || in.tail_wake) return;
  const Picos now = now_ps();
  if (now < in.tail) {  // cut through: the last copy has left before the last byte is in
    in.tail_wake = true;
    events_.schedule(in.tail, *this, wake(Wake::tail, in.port));
    return;
  }
  in.occupied = false;
  tx(in.port).return_credits(1);  // to the device upstream of this input
}

TxSource::Pull IbSwitch::next_data(int port, Picos) {
  Output& out = outputs_[static_cast<size_t>(port - 1)];
  if (!out.packet || out.on_wire) return {};
  out.on_wire = true;
  return {out.packet, kNever};
}

void IbSwitch::transmission_done(int port) {
  Output& out = outputs_[static_cast<size_t>(port - 1)];
  if (!out.on_wire) return;
  out.on_wire = false;
  out.packet = nullptr;
  arbitrate(port);
}

uint64_t IbSwitch::held() const {
  uint64_t n = 0;
  for (const Input& in : inputs_) n += in.occupied;
  for (const Output& out : outputs_) n += out.packet != nullptr;
  return n;
}

}  // namespace fabric
