#include "model/leaf/congestion_points.h"

#include "model/core/random.h"
#include "model/core/sim_time.h"
#include "model/leaf/egress_unit.h"
#include "model/leaf/ingress_unit.h"

namespace fabric {

LeafCongestionPoints::LeafCongestionPoints(const LeafLayout& layout, const LeafParams& params, uint64_t seed,
                                           LeafLinks& links, const Wiring& wiring)
    : layout_(layout),
      params_(params),
      seed_(seed),
      links_(links),
      wiring_(wiring),
      in_(layout.ports),
      out_(layout.ports) {}

CongestionPoint& LeafCongestionPoints::point(bool ingress, int k, uint8_t priority) {
  std::unique_ptr<CongestionPoint>& cp = (ingress ? in_ : out_)[k][priority];
  if (!cp) {
    const uint64_t salt = (uint64_t{raw(layout_.port(k))} << 8 | priority) << 1 | (ingress ? 1 : 0);
    cp = std::make_unique<CongestionPoint>(ingress ? params_.cp_ingress : params_.cp_egress,
                                           mix_seed(seed_, 0x4350000000000000ULL + salt));
  }
  return *cp;
}

void LeafCongestionPoints::sample_ingress(int k, const EthernetFrame& f) {
  if (!params_.lossless.test(f.priority)) return;
  LeafIngress& ingress = wiring_.ingress.port(k);
  const double queue = double(ingress.lossless_units(f.priority)) * params_.packet_bytes;
  const std::optional<CongestionPoint::Sample> s = point(true, k, f.priority).on_arrival(f.bytes, queue);
  if (!s || !s->cnm) return;
  const FlowId culprit = params_.culprit == CulpritPolicy::arrival ? f.flow : ingress.culprit(f.priority, f.flow);
  send_cnm(layout_.port(k), culprit, f.priority, s->quantized, true);
}

void LeafCongestionPoints::sample_egress(int k, const FabricPacket& p) {
  if (!params_.lossless.test(p.priority)) return;
  const double queue = double(wiring_.egress.port(k).held_units(p.vl)) * params_.packet_bytes;
  const std::optional<CongestionPoint::Sample> s = point(false, k, p.priority).on_arrival(p.frame_bytes, queue);
  if (!s || !s->cnm) return;
  send_cnm(p.src, p.flow, p.priority, s->quantized, false, k);
}

void LeafCongestionPoints::send_cnm(PortId source, FlowId culprit, uint8_t priority, uint8_t fb, bool from_ingress,
                                    int cp_port) {
  const int k = from_ingress ? layout_.geometry.local_index(source) : cp_port;
  if (observer_) observer_->on_cnm(k, from_ingress, culprit, fb, now_ps());
  Payload& m = wiring_.control.cna_frame(ControlKind::cnm, source, priority);
  ControlMessage& c = control_of(m);
  c.flow = culprit;
  c.fb = fb;
  if (from_ingress) {  // straight to the attached CNA: no fabric bandwidth
    links_.user_tx(layout_.geometry.local_index(source)).send_control(m);
    return;
  }
  wiring_.control.route(m);  // from an egress CP: back through the fabric (or this leaf) to the source's CNA
}

}  // namespace fabric
