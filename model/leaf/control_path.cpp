#include "model/leaf/control_path.h"

#include <cstdint>

#include "model/core/sim_time.h"

namespace fabric {

namespace {
// A VOQ's messages of one kind: (kind, sender, receiver, VL).
uint64_t voq_key(const ControlMessage& c) {
  return uint64_t{static_cast<uint8_t>(c.kind)} << 60 | uint64_t{raw(c.vl)} << 52 | uint64_t{raw(c.from)} << 26 |
         raw(c.to);
}
}  // namespace

void ControlPath::send(ControlKind kind, PortId from, PortId to, Vl vl, uint32_t units, uint32_t count,
                       CopyRange copies, bool withdraw) {
  Payload& m = pool_.acquire(MessageKind::control, params_.control_bytes);
  ControlMessage& c = control_of(m);
  c.kind = kind;
  c.from = from;
  c.to = to;
  c.to_leaf = layout_.geometry.leaf_of(to);
  c.vl = vl;
  c.units = units;
  c.count = count;
  c.copies = copies;
  c.withdraw = withdraw;
  if (!(params_.control_coalesced >> static_cast<int>(kind) & 1)) {
    route(m);
    return;
  }
  const auto merge = [this](Payload* held, Payload* incoming) {
    if (!try_coalesce(control_of(*held), control_of(*incoming), params_.max_frame_units)) return false;
    incoming->release();
    return true;
  };
  const uint64_t key = voq_key(c);
  const auto outcome = batcher_.offer(key, &m, now_ps(), merge);
  if (outcome.send) route(**outcome.send);
  if (outcome.due)  // a batch opened: m is held until then
    events_.schedule(*outcome.due, *this, reinterpret_cast<void*>(static_cast<uintptr_t>(key)));
}

// A batch's wake carries its key, not its message: the message may have
// left (a full batch) and been reused before the wake.
void ControlPath::on_wake(void* item) {
  const auto key = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(item));
  if (const auto due = batcher_.take_due(key, now_ps())) route(**due);
}

void ControlPath::route(Payload& message) {
  const Picos now = now_ps();
  if (layout_.is_local(control_of(message).to_leaf)) {  // across the crossbar to a port of this leaf
    internal_.push(now + to_ps(params_.crossbar_latency), message);
    return;
  }
  const Picos due = now + to_ps(params_.traversal);
  const int s = static_cast<int>(next_uplink_++ % static_cast<size_t>(layout_.spines));
  info_of(message).ready_at = due;
  links_.uplink_tx(s).send_control(message);
}

Payload& ControlPath::cna_frame(ControlKind kind, PortId port, uint8_t priority) {
  Payload& m = pool_.acquire(MessageKind::control, params_.control_frame_bytes);
  ControlMessage& c = control_of(m);
  c.kind = kind;
  c.from = c.to = port;
  c.to_leaf = layout_.geometry.leaf_of(port);
  c.priority = priority;
  c.count = 1;
  c.units = 0;
  return m;
}

}  // namespace fabric
