#include "model/leaf/surrogate_loop.h"

#include <string>

#include "model/leaf/egress_unit.h"
#include "model/leaf/ingress_unit.h"
#include "model/leaf/segmentation.h"

namespace fabric {

namespace {

// The frame a copy at the surrogate's egress becomes when handed back: one
// surrogate level deeper, replicated by the surrogate's MCBC entry.
EthernetFrame handed_back(const FrameHeader& copy) {
  EthernetFrame f;
  static_cast<FrameHeader&>(f) = copy;
  f.levels = static_cast<uint8_t>(copy.levels + 1);
  f.dst_mac = 0;
  return f;
}

}  // namespace

SurrogateLoop::SurrogateLoop(const LeafLayout& layout, const LeafParams& params, EventQueue& events,
                             const Wiring& wiring)
    : layout_(layout),
      params_(params),
      wiring_(wiring),
      wakeup_(std::make_unique<Wakeup>(events, [this] { step(); })) {}

void SurrogateLoop::step() {
  const Picos now = now_ps();
  const int k = layout_.surrogate;
  if (looping_) {  // the frame handed back last has crossed: it arrives at the ingress one level deeper
    const ForwardedCopy copy = *looping_;
    looping_.reset();
    wiring_.egress.copy_left(k, copy);
    wiring_.ingress.on_handed_back(handed_back(copy.meta));
  }
  if (now < free_at_) {
    wakeup_->at(free_at_);
    return;
  }
  LeafEgress& egress = wiring_.egress.port(k);
  const LeafEgress::Next next = egress.next_copy(now, this);
  pause_.update(egress.blocked(), next.copy ? raw(next.copy->vl) : -1, [&](int vl, bool paused) {
    if (observer_) observer_->on_pause(k, vl, paused, paused && egress.blocked_by_headers().test(vl), now);
  });
  if (!next.copy) {
    if (next.retry_at != kNever) wakeup_->at(next.retry_at);
    return;  // a held-back frame is tried again when an ACK frees room (check_pause)
  }
  looping_ = next.copy;
  free_at_ = now + layout_.cycle_ps * crossbar_cycles(next.copy->meta.bytes, params_.crossbar_bytes_per_cycle);
  wakeup_->at(free_at_);
}

RoomShortage SurrogateLoop::shortage(const FrameHeader& copy) const {
  return wiring_.ingress.loop_shortage(handed_back(copy));
}

}  // namespace fabric
