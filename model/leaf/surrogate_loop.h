#pragma once
// The surrogate port's loop (mechanism 8). Copies addressed to the surrogate
// are reassembled in its egress buffer like any port's; its egress then
// hands each frame back to its own ingress over its crossbar interface, where
// the frame arrives one surrogate level deeper and is replicated to the
// surrogate's local fanout set (local user ports and deeper surrogates) with
// the usual VOQs, cache, sync and drop policies. The frame's copy is
// acknowledged to its source when it has been handed back.
// Fabric-internal PAUSE: a frame of a lossless VL is handed back only when
// the surrogate's ingress can take it whole, its payload in that VL's pool
// and every copy's header in its VL's header pool (issue 18 §4: held, never
// dropped); while one waits the VL is paused, told to the leaf's observer
// (recorded as events 'pause' / 'go', entity the surrogate port, value = the
// VL; 'pause_headers' beside a 'pause' when the frame lacked headers rather
// than payload room).
#include <algorithm>
#include <memory>
#include <optional>

#include "model/core/wakeup.h"
#include "model/leaf/ingress_room.h"
#include "model/leaf/leaf_egress.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_observer.h"
#include "model/leaf/leaf_params.h"
#include "model/leaf/loop_pause.h"

namespace fabric {

class IngressUnit;
class EgressUnit;

class SurrogateLoop : private LoopRoom {
 public:
  struct Wiring {
    IngressUnit& ingress;
    EgressUnit& egress;
  };
  SurrogateLoop(const LeafLayout& layout, const LeafParams& params, EventQueue& events, const Wiring& wiring);
  // Who hears of each PAUSE change of the surrogate's VLs, or null.
  void set_observer(LeafObserver* observer) { observer_ = observer; }

  // A copy became ready in the surrogate's egress buffer.
  void on_copy_ready() { wakeup_->at(std::max(now_ps(), free_at_)); }
  // Room may have freed in the surrogate's ingress pool of `vl`: a frame
  // held back on it (fabric-internal PAUSE) tries again.
  void check_pause(Vl vl) {
    if (pause_.paused(raw(vl))) wakeup_->at(std::max(now_ps(), free_at_));
  }

 private:
  void step();
  RoomShortage shortage(const FrameHeader& copy) const override;

  const LeafLayout& layout_;
  const LeafParams& params_;
  LeafObserver* observer_ = nullptr;
  Wiring wiring_;
  std::unique_ptr<Wakeup> wakeup_;
  std::optional<ForwardedCopy> looping_;  // the copy the surrogate's egress is handing back
  Picos free_at_ = 0;                     // the surrogate's crossbar interface
  LoopPause pause_;                       // VLs whose next frame waits for room at the surrogate's ingress
};

}  // namespace fabric
