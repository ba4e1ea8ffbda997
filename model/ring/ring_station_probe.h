#pragma once
// Records what a ring station reports (RingStationObserver): host drops,
// packets sent (frames and 'reservation' events), retracts, deliveries, and
// at the end its per-subflow totals. The platform's top makes one right
// after each station.
#include "model/recording/recorder.h"
#include "model/ring/ring_station_observer.h"

namespace fabric {

class RingStation;

class RingStationProbe final : public RingStationObserver {
 public:
  // Declares the entity station<N>.
  RingStationProbe(const RingStation& station, Recorder& recorder);

  void on_host_drop(uint64_t packet, Picos now) override;
  void on_sent(uint64_t packet, Picos created, int attempts, Picos now) override;
  void on_retract(Picos now) override;
  void on_delivery(int source, uint64_t packet, Picos created, Picos at) override;
  // End of run: the per-subflow totals.
  void finish();
  // The station's entity, for the top's totals of it.
  EntityId entity() const { return entity_; }

 private:
  const RingStation& station_;
  Recorder& recorder_;
  int id_;
  EntityId entity_;  // station<N>
};

}  // namespace fabric
