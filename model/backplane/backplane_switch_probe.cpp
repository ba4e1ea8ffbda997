#include "model/backplane/backplane_switch_probe.h"

#include "model/backplane/backplane_switch.h"

namespace fabric {

BackplaneSwitchProbe::BackplaneSwitchProbe(const BackplaneSwitch& sw, Recorder& recorder)
    : switch_(sw),
      recorder_(recorder),
      entity_(recorder.declare(EntityKind::switch_, "switch", -1, unit_place({UnitKind::switch_, 0}))) {}

void BackplaneSwitchProbe::on_discard(int in, FrameId frame, FlowId flow, Picos now) {
  recorder_.drop({frame, flow, PortId(static_cast<uint32_t>(in)), -1, DropReason::shared_memory, now});
}

void BackplaneSwitchProbe::on_pause(bool xoff, uint64_t occupancy, Picos now) {
  recorder_.event(now, xoff ? EventKind::xoff : EventKind::xon, entity_, -1, static_cast<double>(occupancy));
}

void BackplaneSwitchProbe::sample(Picos t) {
  recorder_.sample(t, entity_, metric::memory_bytes, static_cast<double>(switch_.memory().occupancy()));
}

void BackplaneSwitchProbe::finish() {
  const SharedMemorySwitch& memory = switch_.memory();
  recorder_.total(entity_, metric::memory_peak_bytes, static_cast<double>(memory.peak()));
  recorder_.total(entity_, metric::discards, static_cast<double>(memory.discards()));
  recorder_.total(entity_, metric::xoffs, static_cast<double>(switch_.xoffs()));
  recorder_.total(entity_, metric::xons, static_cast<double>(switch_.xons()));
}

}  // namespace fabric
