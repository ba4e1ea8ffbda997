#include "model/backplane/end_station.h"

#include "model/core/sim_time.h"
#include "model/protocol/ethernet_frame.h"

namespace fabric {

EndStation::EndStation(sc_core::sc_module_name name, PortId port, const EndStationParams& params, PayloadPool& pool,
                       EventQueue& events)
    : sc_module(name),
      tx("tx", *this, 0, pool, ethernet_tx_params(), events),
      rx("rx", *this, 0, events),
      events_(events),
      port_(port),
      params_(params),
      pool_(pool),
      stages_(params.nic_buffer_bytes, params.mac_buffer_bytes),
      pause_(params.link_gbps),
      received_(port) {}

void EndStation::attach(Application application) {
  app_ = std::move(application);
  events_.schedule(app_.start, *this);
}

bool EndStation::paused_now() const { return pause_.paused(now_ps()); }

void EndStation::on_wake(void*) { write_frames(now_ps()); }

void EndStation::write_frames(Picos now) {
  if (!app_.frames || now < app_.start || (app_.stop >= 0 && now >= app_.stop)) return;
  bool wrote = false;
  while (stages_.nic_has_room(app_.frames->next().bytes) && (app_.max_frames == 0 || next_seq_ < app_.max_frames)) {
    const ApplicationFrames::Frame f = app_.frames->next();
    stages_.write({FrameId((uint64_t{raw(port_)} << 32) | next_seq_++), app_.flow, f.bytes, raw(f.dst), now});
    app_.frames->take();
    wrote = true;
  }
  if (wrote) tx.kick();
}

TxSource::Pull EndStation::next_data(int, Picos) {
  if (on_wire_) transmission_done(0);
  if (stages_.mac_empty()) return {};
  const Picos now = now_ps();
  if (pause_.paused(now)) return {nullptr, pause_.until()};
  const StationFrame& head = stages_.mac_head();
  Payload& m = acquire_frame(pool_, {head.id, head.flow, port_, head.bytes, 0, head.created}, head.dst);
  if (observer_) observer_->on_frame(head.id, head.flow, head.bytes, head.created, now);
  ++frames_sent_;
  on_wire_ = true;
  return {&m, kNever};
}

void EndStation::transmission_done(int) {
  if (!on_wire_) return;  // a wake after something else
  on_wire_ = false;
  stages_.sent();
  write_frames(now_ps());
}

void EndStation::receive(int, Payload& payload) {
  const Picos now = now_ps();
  if (info_of(payload).kind == MessageKind::control) {
    const ControlMessage& c = control_of(payload);
    if (c.kind == ControlKind::pause) {
      ++pause_frames_;
      pause_.on_pause(static_cast<uint16_t>(c.units), now);
      if (observer_) observer_->on_pause(c.units > 0, now);
      if (c.units == 0) tx.kick();
    }
    payload.release();
    return;
  }
  const EthernetFrame& f = frame_of(payload);
  const Picos latency = now - f.created;
  if (observer_) observer_->on_delivery(f.frame, f.flow, now, f.bytes, f.created);
  received_.add(f.flow, f.bytes, now, latency);
  if (now >= params_.measure_from) {
    measured_.add(latency);
    measured_bytes_ += f.bytes;
  }
  payload.release();
}

void EndStation::finish() {
  if (!observer_) return;
  // Frames still in the NIC or MAC buffer were created and never sent; the
  // one on the wire has its row.
  bool skip = on_wire_;
  stages_.for_each_held([&](const StationFrame& f) {
    if (skip) {
      skip = false;
      return;
    }
    observer_->on_frame(f.id, f.flow, f.bytes, f.created, -1);
  });
}

}  // namespace fabric
