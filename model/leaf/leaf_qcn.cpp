// Leaf: QCN congestion points on the lossless priorities. An ingress CP
// samples the frames admitted at a user port against that priority's
// ingress pool and sends its CNM straight to the attached CNA: one sample per
// frame, so a multicast frame draws at most one CNM. An egress CP samples the
// copies completed in a port's egress buffer (the packets held for that VL)
// and sends its CNM back through the fabric to the source port's CNA.
// CNMs are 64 B frames; each is an event 'cnm' (entity port<N>.in or
// port<N>.out, the culprit flow, value = the quantized feedback).
#include "model/core/random.h"
#include "model/core/sim_time.h"
#include "model/leaf/leaf.h"

namespace fabric {

CongestionPoint& Leaf::congestion_point(bool ingress, int k, uint8_t priority) {
  std::unique_ptr<CongestionPoint>& cp = (ingress ? cp_in_ : cp_out_)[k][priority];
  if (!cp) {
    const uint64_t salt = (uint64_t{raw(port(k))} << 8 | priority) << 1 | (ingress ? 1 : 0);
    cp = std::make_unique<CongestionPoint>(ingress ? params_.cp_ingress : params_.cp_egress,
                                           mix_seed(seed_, 0x4350000000000000ULL + salt));
  }
  return *cp;
}

void Leaf::sample_ingress_cp(int k, const EthernetFrame& f) {
  if (!params_.lossless.test(f.priority)) return;
  const double queue = double(ingress_[k].lossless_units(f.priority)) * params_.packet_bytes;
  const std::optional<CongestionPoint::Sample> s = congestion_point(true, k, f.priority).on_arrival(f.bytes, queue);
  if (!s || !s->cnm) return;
  const FlowId culprit = params_.culprit == CulpritPolicy::arrival ? f.flow : ingress_[k].culprit(f.priority, f.flow);
  send_cnm(port(k), culprit, f.priority, s->quantized, true);
}

void Leaf::sample_egress_cp(int k, const FabricPacket& p) {
  if (!params_.lossless.test(p.priority)) return;
  const double queue = double(egress_[k].held_units(p.vl)) * params_.packet_bytes;
  const std::optional<CongestionPoint::Sample> s =
      congestion_point(false, k, p.priority).on_arrival(p.frame_bytes, queue);
  if (!s || !s->cnm) return;
  send_cnm(p.src, p.flow, p.priority, s->quantized, false, k);
}

void Leaf::send_cnm(PortId source, FlowId culprit, uint8_t priority, uint8_t fb, bool from_ingress, int cp_port) {
  const Picos now = now_ps();
  const int k = from_ingress ? geometry_.local_index(source) : cp_port;
  recorder_.event(now, EventKind::cnm, "port" + std::to_string(raw(port(k))) + (from_ingress ? ".in" : ".out"),
                  raw(culprit), fb);
  Payload& m = pool_.acquire(MessageKind::control, params_.control_frame_bytes);
  ControlMessage& c = control_of(m);
  c.kind = ControlKind::cnm;
  c.from = c.to = source;
  c.to_leaf = geometry_.leaf_of(source);
  c.priority = priority;
  c.flow = culprit;
  c.fb = fb;
  c.count = 1;
  c.units = 0;
  if (from_ingress) {  // straight to the attached CNA: no fabric bandwidth
    user_tx(geometry_.local_index(source)).send_control(m);
    return;
  }
  route_control(m);  // from an egress CP: back through the fabric (or this leaf) to the source's CNA
}

}  // namespace fabric
