#include "model/leaf/surrogate_loop.h"

#include <array>

#include "model/leaf/egress_unit.h"
#include "model/leaf/ingress_unit.h"
#include "model/leaf/segmentation.h"

namespace fabric {

SurrogateLoop::SurrogateLoop(const LeafLayout& layout, const LeafParams& params, EventQueue& events,
                             Recorder& recorder, const Wiring& wiring)
    : layout_(layout), params_(params), recorder_(recorder), wiring_(wiring),
      wakeup_(std::make_unique<Wakeup>(events, [this] { step(); })) {}

void SurrogateLoop::step() {
  const Picos now = now_ps();
  const int k = layout_.surrogate;
  if (looping_) {  // the frame handed back last has crossed: it arrives at the ingress one level deeper
    const ForwardedCopy copy = *looping_;
    looping_.reset();
    wiring_.egress.copy_left(k, copy);
    EthernetFrame f;
    static_cast<FrameHeader&>(f) = copy.meta;
    f.levels = static_cast<uint8_t>(copy.meta.levels + 1);
    f.dst_mac = 0;
    wiring_.ingress.on_multicast_frame(k, f, copy.meta.mid);
  }
  if (now < free_at_) {
    wakeup_->at(free_at_);
    return;
  }
  const LeafIngress& ingress = wiring_.ingress.port(k);
  std::array<uint32_t, kVls> room;
  for (int v = 0; v < kVls; ++v) room[v] = ingress.loop_room(Vl(v));
  LeafEgress& egress = wiring_.egress.port(k);
  const LeafEgress::Next next = egress.next_copy(now, &room);
  pause_.update(egress.blocked(), next.copy ? raw(next.copy->vl) : -1, [&](int vl, bool paused) {
    recorder_.event(now, paused ? EventKind::pause : EventKind::go, layout_.port_entity(k), -1, vl);
  });
  if (!next.copy) {
    if (next.retry_at != kNever) wakeup_->at(next.retry_at);
    return;  // a held-back frame is tried again when an ACK frees room (check_pause)
  }
  looping_ = next.copy;
  free_at_ = now + layout_.cycle_ps * crossbar_cycles(next.copy->meta.bytes, params_.crossbar_bytes_per_cycle);
  wakeup_->at(free_at_);
}

}  // namespace fabric
