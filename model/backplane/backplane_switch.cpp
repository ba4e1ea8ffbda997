#include "model/backplane/backplane_switch.h"

#include "model/core/sim_time.h"
#include "model/invariants/invariant_broken.h"

namespace fabric {

BackplaneSwitch::BackplaneSwitch(sc_core::sc_module_name name, const BackplaneSwitchParams& params, PayloadPool& pool,
                                 EventQueue& events)
    : sc_module(name),
      params_(params),
      pool_(pool),
      events_(events),
      switch_(params.ports, params.memory_bytes),
      on_wire_(static_cast<size_t>(params.stations), false) {
  if (params.pause) {
    controller_.emplace(params.xoff);
    obedience_.assign(static_cast<size_t>(params.stations), PauseObedience(params.pause_obeyed_within));
  }
  for (int p = 0; p < params.stations; ++p) {
    tx_.push_back(
        std::make_unique<TxPort>(("tx" + std::to_string(p)).c_str(), *this, p, pool, ethernet_tx_params(), events));
    rx_.push_back(std::make_unique<RxPort>(("rx" + std::to_string(p)).c_str(), *this, p, events));
  }
}

void BackplaneSwitch::receive(int in, Payload& payload) {
  const Picos now = now_ps();
  if (info_of(payload).kind != MessageKind::frame) {  // stations send no PAUSE
    payload.release();
    return;
  }
  const EthernetFrame& f = frame_of(payload);
  if (!obedience_.empty()) check_obeyed(in, f, now);
  const int out = static_cast<int>(f.dst_mac);
  if (out < 0 || out >= params_.stations || !switch_.admit(out, {reinterpret_cast<uintptr_t>(&payload), f.bytes, in})) {
    if (observer_) observer_->on_discard(in, f.frame, f.flow, now);
    payload.release();
    return;
  }
  info_of(payload).ready_at = now + params_.forwarding_latency;
  if (controller_) act(controller_->on_occupancy(switch_.occupancy(), now), now);
  tx(out).kick();
}

TxSource::Pull BackplaneSwitch::next_data(int out, Picos not_after) {
  if (on_wire_[static_cast<size_t>(out)]) transmission_done(out);
  if (switch_.empty(out)) return {};
  Payload* head = reinterpret_cast<Payload*>(static_cast<uintptr_t>(switch_.head(out).handle));
  const Picos ready = info_of(*head).ready_at;
  if (ready > not_after) return {nullptr, ready};
  on_wire_[static_cast<size_t>(out)] = true;
  return {head, kNever};
}

void BackplaneSwitch::transmission_done(int out) {
  if (!on_wire_[static_cast<size_t>(out)]) return;  // after a PAUSE frame
  on_wire_[static_cast<size_t>(out)] = false;
  switch_.pop(out);
  if (controller_) act(controller_->on_occupancy(switch_.occupancy(), now_ps()), now_ps());
}

void BackplaneSwitch::on_wake(void*) {
  const Picos now = now_ps();
  act(controller_->on_xoff_running_out(switch_.occupancy(), now), now);
}

void BackplaneSwitch::act(XoffController::Action action, Picos now) {
  if (action == XoffController::Action::none) return;
  const bool xoff = action == XoffController::Action::xoff;
  if (observer_) observer_->on_pause(xoff, switch_.occupancy(), now);
  send_pause(xoff ? params_.xoff_quanta : 0);
  if (xoff) events_.schedule(controller_->xoff_runs_out(), *this);
}

void BackplaneSwitch::check_obeyed(int in, const EthernetFrame& f, Picos now) {
  ++invariants_checked_;
  const PauseObedience& o = obedience_[static_cast<size_t>(in)];
  if (o.allows(0, now)) return;
  break_invariant(invariant::kPauseObeyed, "station" + std::to_string(in), now,
                  "frame " + std::to_string(raw(f.frame)) + " arrived " + std::to_string((now - o.stop_sent(0)) / 1e3) +
                      " ns after the switch sent XOFF to the station, which was to stop within " +
                      std::to_string(o.window() / 1e3) +
                      " ns (the XOFF behind a frame, its own time on the wire, "
                      "the link both ways and the frame the station was sending)");
}

void BackplaneSwitch::send_pause(uint16_t quanta) {
  for (size_t p = 0; p < obedience_.size(); ++p)
    obedience_[p].on_pause_sent(0, quanta > 0, now_ps(), params_.xoff.xoff_lasts);
  for (int p = 0; p < params_.stations; ++p) {
    Payload& m = pool_.acquire(MessageKind::control, params_.pause_frame_bytes);
    ControlMessage& c = control_of(m);
    c = ControlMessage{};
    c.kind = ControlKind::pause;
    c.to = PortId(static_cast<uint32_t>(p));
    c.units = quanta;
    c.stop = quanta > 0;
    info_of(m).ready_at = now_ps();
    tx(p).send_control(m);
  }
}

uint64_t BackplaneSwitch::frames_held() const { return switch_.frames(); }

}  // namespace fabric
