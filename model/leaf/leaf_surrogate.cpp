// Leaf: the surrogate port (mechanism 8). Copies addressed to it are
// reassembled in its egress buffer like any port's; its egress then hands
// each frame back to its own ingress over its crossbar interface, where the
// frame arrives one surrogate level deeper and is replicated to the
// surrogate's local fanout set (local user ports and deeper surrogates) with
// the usual VOQs, cache, sync and drop policies. The frame's copy is
// acknowledged to its source when it has been handed back.
// Fabric-internal PAUSE: a frame of a lossless VL is handed back only when
// the ingress pool of that VL has room for it; while one waits the VL is
// paused (events 'pause' / 'go', entity the surrogate port, value = the VL).
#include "model/core/sim_time.h"
#include "model/leaf/leaf.h"
#include "model/leaf/segmentation.h"

namespace fabric {

void Leaf::loop_step() {
  const Picos now = now_ps();
  if (looping_) {
    const ForwardedCopy copy = *looping_;
    looping_.reset();
    egress_[surrogate_].on_forwarded(copy);
    run_arbiter(surrogate_);
    send_control(ControlKind::ack, port(surrogate_), copy.src, copy.vl, copy.copy_seq + 1, 1);
    on_looped(copy);
  }
  if (now < loop_free_at_) {
    loop_wakeup_->at(loop_free_at_);
    return;
  }
  std::array<uint32_t, kVls> room;
  for (int v = 0; v < kVls; ++v) room[v] = ingress_[surrogate_].loop_room(Vl(v));
  LeafEgress& egress = egress_[surrogate_];
  const LeafEgress::Next next = egress.next_copy(now, &room);
  if (egress.blocked().any() || loop_paused_.any()) {
    for (int v = 0; v < kVls; ++v) {  // newly held back: PAUSE; handed back again: GO
      const bool held = egress.blocked().test(v) && !(next.copy && raw(next.copy->vl) == v);
      if (held == loop_paused_.test(v)) continue;
      loop_paused_.set(v, held);
      recorder_.event(now, held ? EventKind::pause : EventKind::go, "port" + std::to_string(raw(port(surrogate_))), -1,
                      v);
    }
  }
  if (!next.copy) {
    if (next.retry_at != kNever) loop_wakeup_->at(next.retry_at);
    return;  // a held-back frame is tried again when an ACK frees room (check_loop_pause)
  }
  looping_ = next.copy;
  loop_free_at_ = now + cycle_ps_ * crossbar_cycles(next.copy->meta.bytes, params_.crossbar_bytes_per_cycle);
  loop_wakeup_->at(loop_free_at_);
}

void Leaf::on_looped(const ForwardedCopy& copy) {
  EthernetFrame f;
  static_cast<FrameHeader&>(f) = copy.meta;
  f.levels = static_cast<uint8_t>(copy.meta.levels + 1);
  f.dst_mac = 0;
  on_multicast_frame(surrogate_, f, copy.meta.mid);
}

void Leaf::check_loop_pause(Vl vl) {
  if (loop_paused_.test(raw(vl))) loop_wakeup_->at(std::max(now_ps(), loop_free_at_));
}

}  // namespace fabric
