#include "model/backplane/end_station_probe.h"

#include <string>

#include "model/backplane/end_station.h"

namespace fabric {

EndStationProbe::EndStationProbe(const EndStation& station, Recorder& recorder)
    : station_(station),
      recorder_(recorder),
      entity_(recorder.declare(EntityKind::station, "station" + std::to_string(raw(station.port())),
                               raw(station.port()), unit_place({UnitKind::station, raw(station.port())}))) {}

void EndStationProbe::on_frame(FrameId frame, FlowId flow, uint32_t bytes, Picos created, Picos sent) {
  recorder_.frame({frame, flow, station_.port(), bytes, 0, created, sent});
}

void EndStationProbe::on_delivery(FrameId frame, FlowId flow, Picos now, uint32_t bytes, Picos created) {
  recorder_.delivery({frame, flow, station_.port(), now, 0, bytes, created});
}

void EndStationProbe::on_pause(bool stop, Picos now) {
  // As the fabric's PAUSE events: value = the priority (802.3x stops the
  // whole link: 0); the pause time is backplane.pause_quanta.
  recorder_.event(now, stop ? EventKind::pause : EventKind::go, entity_, -1, 0);
}

void EndStationProbe::finish() {
  for (const SubflowSummary& s : station_.received_summaries()) recorder_.subflow_summary(s);
  recorder_.total(entity_, metric::pause_frames, static_cast<double>(station_.pause_frames()));
}

}  // namespace fabric
