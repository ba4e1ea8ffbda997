#include "model/ibft/host_adapter.h"

#include "model/core/sim_time.h"
#include "model/ibft/ib_switch.h"
#include "model/protocol/ethernet_frame.h"

namespace fabric {

HostAdapter::HostAdapter(sc_core::sc_module_name name, int pid, uint32_t credit_bytes, PayloadPool& pool,
                         EventQueue& events)
    : sc_module(name),
      tx("tx", *this, 0, pool, ib_port_params(credit_bytes), events),
      rx("rx", *this, 0, events),
      pid_(pid),
      pool_(pool),
      events_(events),
      received_(PortId(static_cast<uint32_t>(pid))) {
  rx.set_credit_sink(tx);
}

void HostAdapter::send(Picos start, const std::vector<HostPacket>& packets) {
  start_ = start;
  for (const HostPacket& p : packets) queue_.push_back(p);
  events_.schedule(start, *this);
}

TxSource::Pull HostAdapter::next_data(int, Picos) {
  if (queue_.empty()) return {};
  const Picos now = now_ps();
  if (now < start_) return {nullptr, start_};
  const HostPacket& p = queue_.front();
  Payload& m = acquire_frame(pool_, {p.id, p.flow, PortId(static_cast<uint32_t>(pid_)), p.bytes, 0, start_},
                             static_cast<uint64_t>(p.lid));
  if (observer_) observer_->on_frame(p.id, p.flow, p.bytes, start_, now);
  queue_.pop_front();
  ++sent_;
  return {&m, kNever};
}

void HostAdapter::receive(int, Payload& payload) {
  if (info_of(payload).kind != MessageKind::frame) {
    payload.release();
    return;
  }
  tx.return_credits(1);
  const Picos now = now_ps();
  const Picos tail = frame_of(payload).arrival.last_byte;
  if (tail > now) {
    events_.schedule(tail, *this, &payload);  // cut through: delivered with its last byte
  } else {
    deliver(payload, now);
  }
}

void HostAdapter::on_wake(void* item) {
  if (item == nullptr) {
    tx.kick();
    return;
  }
  deliver(*static_cast<Payload*>(item), now_ps());
}

void HostAdapter::deliver(Payload& payload, Picos t) {
  const EthernetFrame& f = frame_of(payload);
  if (observer_) observer_->on_delivery(f.frame, f.flow, t, f.bytes, f.created);
  received_.add(f.flow, f.bytes, t, t - f.created);
  if (t > last_delivery_) last_delivery_ = t;
  payload.release();
}

void HostAdapter::finish() {
  if (!observer_) return;
  for (size_t i = 0; i < queue_.size(); ++i) {
    const HostPacket& p = queue_[i];
    observer_->on_frame(p.id, p.flow, p.bytes, start_, -1);
  }
}

}  // namespace fabric
