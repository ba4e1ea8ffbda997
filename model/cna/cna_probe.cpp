#include "model/cna/cna_probe.h"

#include <string>

#include "model/cna/cna.h"

namespace fabric {

CnaProbe::CnaProbe(const Cna& cna, Recorder& recorder) : cna_(cna), recorder_(recorder) {
  const PortId port = cna.port();
  if (cna.transport())
    transport_entity_ = recorder.declare(EntityKind::cna, "cna" + std::to_string(raw(port)), raw(port),
                                         unit_place({UnitKind::port, raw(port)}));
}

void CnaProbe::on_frame(FrameId frame, FlowId flow, uint32_t bytes, uint8_t priority, Picos created, Picos sent) {
  recorder_.frame({frame, flow, cna_.port(), bytes, priority, created, sent});
}

void CnaProbe::on_delivery(FrameId frame, FlowId flow, Picos now, int levels, uint32_t bytes, Picos created) {
  recorder_.delivery({frame, flow, cna_.port(), now, levels, bytes, created});
}

void CnaProbe::on_retransmission(FlowId flow, PortId dst, Picos now) {
  recorder_.event(now, EventKind::retransmission, *transport_entity_, raw(flow), raw(dst));
}

void CnaProbe::on_rate_change(FlowId flow, double gbps, Picos now) {
  recorder_.event(now, EventKind::rate_change, port_entity(cna_.port()), raw(flow), gbps);
}

void CnaProbe::finish() {
  for (const SubflowSummary& s : cna_.received_summaries()) recorder_.subflow_summary(s);
  const E2eTransport* t = cna_.transport();
  if (!t) return;
  const EntityId entity = *transport_entity_;
  recorder_.total(entity, metric::e2e_retransmitted, static_cast<double>(t->retransmitted()));
  recorder_.total(entity, metric::e2e_go_back_episodes, static_cast<double>(t->go_back_episodes()));
  recorder_.total(entity, metric::e2e_timeouts, static_cast<double>(t->timeouts()));
  recorder_.total(entity, metric::e2e_duplicates, static_cast<double>(t->duplicates()));
  recorder_.total(entity, metric::e2e_out_of_order, static_cast<double>(t->out_of_order()));
  recorder_.total(entity, metric::e2e_acks_sent, static_cast<double>(t->acks_sent()));
  recorder_.total(entity, metric::e2e_naks_sent, static_cast<double>(t->naks_sent()));
  recorder_.total(entity, metric::e2e_unacknowledged, static_cast<double>(t->unacknowledged()));
}

}  // namespace fabric
