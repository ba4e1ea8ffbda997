#pragma once
// Records what a host adapter reports (HostAdapterObserver): its packets
// sent (or never sent) and delivered, and at the end its per-subflow
// totals. The platform's top makes one beside each adapter.
#include "model/ibft/host_adapter_observer.h"
#include "model/recording/recorder.h"

namespace fabric {

class HostAdapter;

class HostAdapterProbe final : public HostAdapterObserver {
 public:
  HostAdapterProbe(const HostAdapter& host, Recorder& recorder) : host_(host), recorder_(recorder) {}

  void on_frame(FrameId frame, FlowId flow, uint32_t bytes, Picos created, Picos sent) override;
  void on_delivery(FrameId frame, FlowId flow, Picos now, uint32_t bytes, Picos created) override;
  // End of run, after the adapter's finish: the per-subflow totals.
  void finish();

 private:
  const HostAdapter& host_;
  Recorder& recorder_;
};

}  // namespace fabric
