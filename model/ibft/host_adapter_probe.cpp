#include "model/ibft/host_adapter_probe.h"

#include "model/ibft/host_adapter.h"

namespace fabric {

void HostAdapterProbe::on_frame(FrameId frame, FlowId flow, uint32_t bytes, Picos created, Picos sent) {
  recorder_.frame({frame, flow, PortId(static_cast<uint32_t>(host_.pid())), bytes, 0, created, sent});
}

void HostAdapterProbe::on_delivery(FrameId frame, FlowId flow, Picos now, uint32_t bytes, Picos created) {
  recorder_.delivery({frame, flow, PortId(static_cast<uint32_t>(host_.pid())), now, 0, bytes, created});
}

void HostAdapterProbe::finish() {
  for (const SubflowSummary& s : host_.received_summaries()) recorder_.subflow_summary(s);
}

}  // namespace fabric
