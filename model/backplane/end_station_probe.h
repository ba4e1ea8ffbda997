#pragma once
// Records what a backplane end station reports (EndStationObserver): its
// frames sent (or never sent), deliveries, and PAUSE as events 'pause' /
// 'go' of the entity station<N>; at the end, its per-subflow totals and its
// PAUSE frames received. The platform's top makes one right after each
// station.
#include "model/backplane/end_station_observer.h"
#include "model/recording/recorder.h"

namespace fabric {

class EndStation;

class EndStationProbe final : public EndStationObserver {
 public:
  // Declares the entity station<N>.
  EndStationProbe(const EndStation& station, Recorder& recorder);

  void on_frame(FrameId frame, FlowId flow, uint32_t bytes, Picos created, Picos sent) override;
  void on_delivery(FrameId frame, FlowId flow, Picos now, uint32_t bytes, Picos created) override;
  void on_pause(bool stop, Picos now) override;
  // End of run, after the station's finish: per-subflow totals, 'pause_frames'.
  void finish();

 private:
  const EndStation& station_;
  Recorder& recorder_;
  EntityId entity_;  // station<N>
};

}  // namespace fabric
