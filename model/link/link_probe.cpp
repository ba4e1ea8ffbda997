#include "model/link/link_probe.h"

namespace fabric {

LinkProbe::LinkProbe(Recorder& recorder, const std::string& link, const EntityPlace& ends, bool retry)
    : recorder_(recorder) {
  if (retry) link_entity_ = recorder.declare(EntityKind::link, link, -1, ends);
}

void LinkProbe::on_replay(Picos now, uint64_t count) {
  recorder_.event(now, EventKind::link_replay, *link_entity_, -1, static_cast<double>(count));
}

void LinkProbe::on_drop(FrameId frame, FlowId flow, PortId port, int64_t dst, Picos now) {
  recorder_.drop({frame, flow, port, dst, DropReason::link, now});
}

}  // namespace fabric
