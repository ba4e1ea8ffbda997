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

void record_link_totals(Recorder& recorder, const Link& link, const EntityPlace& ends, Picos end) {
  // A link that carried nothing has no rows (a missing row is 0): the full
  // fabric has 9,472 links, and a small study uses a few of them.
  if (link.messages() == 0) return;
  const EntityId entity = recorder.declare(EntityKind::link, link.basename(), -1, ends);
  recorder.total(entity, metric::messages, static_cast<double>(link.messages()));
  recorder.total(entity, metric::bytes, static_cast<double>(link.bytes()));
  if (link.data_bytes() > 0) recorder.total(entity, metric::data_bytes, static_cast<double>(link.data_bytes()));
  if (end > 0) recorder.total(entity, metric::utilization, static_cast<double>(link.busy_time(end)) / end);
}

}  // namespace fabric
