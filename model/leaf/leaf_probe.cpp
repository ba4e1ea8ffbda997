#include "model/leaf/leaf_probe.h"

#include "model/leaf/leaf.h"

namespace fabric {

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
  recorder_.sample(t, layout.entity, metric::control_messages, static_cast<double>(leaf_.control_received()));
  recorder_.sample(t, layout.entity, metric::control_merged, static_cast<double>(leaf_.control_merged()));
}

void LeafProbe::sample_cache(Picos t) {
  const MulticastEngine& multicast = leaf_.multicast();
  const PacketCache* cache = multicast.cache();
  if (!cache || !multicast.multicast_seen()) return;
  const LeafLayout& layout = leaf_.layout();
  // Live entries only: a dead entry waits for reclaim but holds nothing a copy needs.
  recorder_.sample(t, layout.entity, metric::cache_entries, cache->live_entries());
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

}  // namespace fabric
