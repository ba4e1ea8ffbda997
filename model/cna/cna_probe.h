#pragma once
// Records what a CNA reports (CnaObserver): each frame sent (or never
// sent), each delivery, the end-to-end transport's retransmissions (entity
// cna<N>) and the rate limiters' rate changes (entity the port); at the
// run's end, the CNA's per-subflow totals and its transport's totals. The
// platform's top makes one right after each CNA.
#include <optional>

#include "model/cna/cna_observer.h"
#include "model/recording/recorder.h"

namespace fabric {

class Cna;

class CnaProbe final : public CnaObserver {
 public:
  // With the CNA's end-to-end transport on, declares its entity cna<N>.
  CnaProbe(const Cna& cna, Recorder& recorder);

  void on_frame(FrameId frame, FlowId flow, uint32_t bytes, uint8_t priority, Picos created, Picos sent) override;
  void on_delivery(FrameId frame, FlowId flow, Picos now, int levels, uint32_t bytes, Picos created) override;
  void on_retransmission(FlowId flow, PortId dst, Picos now) override;
  void on_rate_change(FlowId flow, double gbps, Picos now) override;
  // End of run, after the CNA's finish: per-subflow totals, the transport's totals.
  void finish();

 private:
  const Cna& cna_;
  Recorder& recorder_;
  std::optional<EntityId> transport_entity_;  // cna<N>, with the transport
};

}  // namespace fabric
