#pragma once
// Records what the backplane's switch reports (BackplaneSwitchObserver):
// discards as drops of reason `shared_memory`, XOFF and XON as events of
// the entity "switch"; samples its memory's occupancy and, at the end, its
// totals. The platform's top makes it right after the switch.
#include "model/backplane/backplane_switch_observer.h"
#include "model/recording/recorder.h"

namespace fabric {

class BackplaneSwitch;

class BackplaneSwitchProbe final : public BackplaneSwitchObserver {
 public:
  // Declares the entity "switch".
  BackplaneSwitchProbe(const BackplaneSwitch& sw, Recorder& recorder);

  void on_discard(int in, FrameId frame, FlowId flow, Picos now) override;
  void on_pause(bool xoff, uint64_t occupancy, Picos now) override;
  // The shared memory's occupancy at time t ('memory_bytes').
  void sample(Picos t);
  // End of run: peak occupancy, discards, XOFFs and XONs.
  void finish();

 private:
  const BackplaneSwitch& switch_;
  Recorder& recorder_;
  EntityId entity_;  // "switch"
};

}  // namespace fabric
