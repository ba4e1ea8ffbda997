#include "model/leaf/leaf_probe.h"

#include <string>

#include "model/leaf/leaf.h"

namespace fabric {

LeafProbe::LeafProbe(const Leaf& leaf, Recorder& recorder)
    : leaf_(leaf),
      recorder_(recorder),
      leaf_entity_(recorder.declare(EntityKind::leaf, "leaf" + std::to_string(raw(leaf.layout().id)), -1,
                                    unit_place({UnitKind::leaf, raw(leaf.layout().id)}))) {
  // Every congestion point that may send a CNM is an entity of the run.
  const LeafLayout& layout = leaf.layout();
  const LeafParams& params = leaf.params();
  for (int k = 0; k < layout.ports && (params.qcn_ingress || params.qcn_egress); ++k) {
    const std::string port = "port" + std::to_string(raw(layout.port(k)));
    const int64_t id = raw(layout.port(k));
    const Unit at{UnitKind::port, id};
    cnm_entities_.push_back(
        {recorder.declare(EntityKind::congestion_point, port + ".in", id, unit_place(at, Direction::in)),
         recorder.declare(EntityKind::congestion_point, port + ".out", id, unit_place(at, Direction::out))});
  }
}

void LeafProbe::sample(Picos t) {
  const LeafLayout& layout = leaf_.layout();
  const double packet_bytes = leaf_.params().packet_bytes;
  for (int k = 0; k < layout.ports; ++k) {
    const EntityId entity = layout.port_entity(k);
    recorder_.sample(t, entity, metric::ingress_bytes,
                     static_cast<double>(leaf_.ingress_payload_units(k)) * packet_bytes);
    recorder_.sample(t, entity, metric::egress_bytes, static_cast<double>(leaf_.egress_used_units(k)) * packet_bytes);
  }
  sample_cache(t);
  sample_remote_holds(t);
  if (leaf_.control_received() == 0) return;
  recorder_.sample(t, leaf_entity_, metric::control_messages, static_cast<double>(leaf_.control_received()));
  recorder_.sample(t, leaf_entity_, metric::control_merged, static_cast<double>(leaf_.control_merged()));
}

void LeafProbe::sample_cache(Picos t) {
  const MulticastEngine& multicast = leaf_.multicast();
  const PacketCache* cache = multicast.cache();
  if (!cache || !multicast.multicast_seen()) return;
  const LeafLayout& layout = leaf_.layout();
  // Live entries only: a dead entry waits for reclaim but holds nothing a copy needs.
  recorder_.sample(t, leaf_entity_, metric::cache_entries, cache->live_entries());
  for (int k = 0; k < layout.ports; ++k) {
    const PacketCache::PortStats& s = cache->stats(k);
    if (s.writes + s.hits + s.misses == 0) continue;  // evictions and reclaims follow a write
    const EntityId entity = layout.port_entity(k);
    recorder_.sample(t, entity, metric::cache_hits, static_cast<double>(s.hits));
    recorder_.sample(t, entity, metric::cache_misses, static_cast<double>(s.misses));
    recorder_.sample(t, entity, metric::cache_premature_evictions, static_cast<double>(s.premature_evictions));
    recorder_.sample(t, entity, metric::cache_background_reclaims, static_cast<double>(s.background_reclaims));
  }
}

void LeafProbe::sample_remote_holds(Picos t) {
  const LeafLayout& layout = leaf_.layout();
  for (int k = 0; k < layout.ports; ++k) {
    const IngressUnit::HoldTimes& hold = leaf_.remote_hold(k);
    if (hold.copies == 0) continue;
    const EntityId entity = layout.port_entity(k);
    recorder_.sample(t, entity, metric::remote_copies_acked, static_cast<double>(hold.copies));
    recorder_.sample(t, entity, metric::remote_copy_hold_ps, static_cast<double>(hold.total));
  }
}

void LeafProbe::on_drop(int k, FrameId frame, FlowId flow, int64_t dst, DropReason reason, Picos now) {
  recorder_.drop({frame, flow, leaf_.layout().port(k), dst, reason, now});
}

void LeafProbe::on_hold(int k, FlowId flow, uint8_t priority, Picos now) {
  recorder_.event(now, EventKind::hold, leaf_.layout().port_entity(k), static_cast<int64_t>(raw(flow)), priority);
}

void LeafProbe::on_pause(int k, int priority, bool stop, bool headers, Picos now) {
  const EntityId entity = leaf_.layout().port_entity(k);
  recorder_.event(now, stop ? EventKind::pause : EventKind::go, entity, -1, priority);
  if (headers) recorder_.event(now, EventKind::pause_headers, entity, -1, priority);
}

void LeafProbe::on_retransmission(int k, FlowId flow, PortId target, Picos now) {
  recorder_.event(now, EventKind::retransmission, leaf_.layout().port_entity(k), raw(flow), raw(target));
}

void LeafProbe::on_cnm(int k, bool ingress, FlowId culprit, uint8_t fb, Picos now) {
  recorder_.event(now, EventKind::cnm, ingress ? cnm_entities_[k].in : cnm_entities_[k].out, raw(culprit), fb);
}

void LeafProbe::on_sync(int k, PortId target, bool suspended, Picos now) {
  recorder_.event(now, suspended ? EventKind::sync_suspend : EventKind::sync_resume, leaf_.layout().port_entity(k), -1,
                  raw(target));
}

}  // namespace fabric
