#include "model/leaf/leaf_params.h"

#include "model/core/sim_time.h"
#include "model/leaf/coalesced_controls.h"
#include "model/leaf/rtl_block_params.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

LeafParams LeafParams::for_surrogate() const {
  LeafParams s = *this;
  s.lossy_pool_units = surrogate_lossy_pool_units;
  s.lossy_threshold_units = surrogate_lossy_pool_units - max_frame_units;  // a frame admitted below it fits
  s.lossless_pool_units = surrogate_lossless_pool_units;
  s.egress_pool_units = surrogate_egress_pool_units;
  s.voq_threshold_units = surrogate_voq_threshold_units;
  return s;
}

LeafParams read_leaf_params(const LeafKeys& k, Picos stall_timeout) {
  LeafParams p;
  p.clock_mhz = k.clock_mhz.value();
  p.cycle = sc_core::sc_time(1e6 / p.clock_mhz, sc_core::SC_PS);
  p.crossbar_bytes_per_cycle = static_cast<uint32_t>(k.crossbar_bytes_per_cycle.value());
  p.packet_bytes = static_cast<uint32_t>(k.packet_bytes.value());
  p.traversal = from_ps(k.traversal_latency.value());
  p.concurrent_header = k.concurrent_header.value();
  p.cut_through = k.ingress_forwarding.value() == "cut_through";
  p.lookup = p.cycle * static_cast<double>(k.lookup_latency.value());
  p.crossbar_latency = p.cycle * static_cast<double>(k.crossbar_latency.value());
  auto units = [&](const config::Param<config::Bytes>& key) {
    return static_cast<uint32_t>((key.value() + p.packet_bytes - 1) / p.packet_bytes);
  };
  p.lossy_threshold_units = units(k.ingress_lossy_threshold);
  p.lossless_pool_units = units(k.ingress_lossless_pool);
  p.lossy_pool_units = units(k.ingress_lossy_pool);
  p.egress_pool_units = units(k.egress_pool);
  const std::vector<int64_t> weights = k.egress_priority_weights.value();
  if (weights.size() != p.egress_priority_weights.size())
    k.egress_priority_weights.fail("8 weights, one per priority 0..7, each 1 .. 1000");
  for (size_t i = 0; i < weights.size(); ++i) p.egress_priority_weights[i] = static_cast<uint32_t>(weights[i]);
  p.pause_enabled = k.pause_enable.value();
  p.pause_qhi_units = units(k.pause_qhi);
  p.pause_qlow_units = static_cast<uint32_t>(k.pause_qlow.value() / p.packet_bytes);
  p.pause_headers_hi = static_cast<uint32_t>(k.pause_headers_hi.value());
  p.pause_headers_lo = static_cast<uint32_t>(k.pause_headers_lo.value());
  const std::string position = k.qcn_position.value();
  p.qcn_ingress = position == "ingress" || position == "both";
  p.qcn_egress = position == "egress" || position == "both";
  if (p.qcn_ingress || p.qcn_egress) {
    p.culprit = parse_culprit_policy(k.qcn_culprit.value());
    p.culprit_probes = static_cast<uint32_t>(k.qcn_random_probes.value());
    CongestionPoint::Params cp;
    cp.w = k.qcn_w.value();
    cp.interval_bytes = static_cast<double>(k.qcn_interval.value());
    cp.schedule =
        k.qcn_schedule.value() == "fixed" ? CongestionPoint::Schedule::fixed : CongestionPoint::Schedule::standard;
    cp.frames_per_cnm = static_cast<uint32_t>(k.qcn_frames_per_cnm.value());
    p.cp_ingress = p.cp_egress = cp;
    p.cp_ingress.qeq_bytes = static_cast<double>(k.qcn_qeq_ingress.value());
    p.cp_egress.qeq_bytes = static_cast<double>(k.qcn_qeq_egress.value());
    const double lossless_pool = double(p.lossless_pool_units) * p.packet_bytes;
    const double egress_pool = double(p.egress_pool_units) * p.packet_bytes;
    if (p.cp_ingress.qeq_bytes > lossless_pool)
      k.qcn_qeq_ingress.fail("1 B .. leaf.ingress.lossless_pool (" + std::to_string(int64_t(lossless_pool)) + " B)");
    if (p.cp_egress.qeq_bytes > egress_pool)
      k.qcn_qeq_egress.fail("1 B .. leaf.egress.pool (" + std::to_string(int64_t(egress_pool)) + " B)");
  }
  p.header_pool_lossy = static_cast<uint32_t>(k.header_pool_lossy.value());
  p.header_pool_lossless = static_cast<uint32_t>(k.header_pool_lossless.value());
  p.header_memory = static_cast<uint32_t>(k.header_memory.value());
  p.header_admission.policy = HeaderAdmission::parse(k.header_policy.value());
  p.header_admission.hth = static_cast<uint32_t>(k.header_hth.value());
  p.header_admission.red_high = static_cast<uint32_t>(k.header_red_high.value());
  p.header_admission.red_low = static_cast<uint32_t>(k.header_red_low.value());
  p.header_admission.red_p = k.header_red_p.value();
  const std::string voq_drop = k.voq_drop.value();
  p.voq_drop = voq_drop == "off"    ? LeafParams::VoqDrop::off
               : voq_drop == "tail" ? LeafParams::VoqDrop::tail
                                    : LeafParams::VoqDrop::head;
  p.voq_threshold_units = units(k.voq_threshold);
  const std::string dropped_credit = k.dropped_copy_credit.value();
  p.dropped_credit = dropped_credit == "keep"       ? LeafParams::DroppedCredit::keep
                     : dropped_credit == "per_copy" ? LeafParams::DroppedCredit::per_copy
                                                    : LeafParams::DroppedCredit::withdraw;
  p.uplink_queue_packets = static_cast<int>(k.uplink_queue_packets.value());
  p.downlink_buffer_packets = static_cast<int>(k.downlink_buffer_packets.value());
  p.spray = k.spray.value();
  p.arbiter_quantum_units = units(k.arbiter_quantum);
  p.max_frame_units = (9216 + p.packet_bytes - 1) / p.packet_bytes;
  p.coalesce_control = k.coalesce_control.value();
  p.control_coalesced = parse_coalesced_controls(k.control_coalesce.key(), k.control_coalesce.value());
  p.control_holdoff = from_ps(k.control_holdoff.value());
  p.control_max_batch = static_cast<uint32_t>(k.control_max_merged.value());
  p.control_bytes = static_cast<uint32_t>(k.control_bytes.value());
  p.control_frame_bytes = static_cast<uint32_t>(k.ethernet_control_frame_bytes.value());
  for (int64_t prio : k.classes_lossless_priorities.value()) p.lossless.set(static_cast<size_t>(prio));
  p.stall_timeout = from_ps(stall_timeout);
  p.cache_enabled = k.cache_enable.value();
  p.cache_entries = static_cast<uint32_t>(k.cache_entries.value());
  p.cache_mirrors = static_cast<uint32_t>(k.cache_mirrors.value());
  p.cache_header_lag_cycles = static_cast<uint32_t>(k.cache_header_lag.value());
  p.cache_background_free_min = static_cast<uint32_t>(k.cache_background_free_min.value());
  p.cache_background_evicts_live = k.cache_background_evict.value() == "idle";
  p.sync_enabled = k.sync_enable.value();
  p.sync_entries = static_cast<uint32_t>(k.sync_entries.value());
  p.sync_shi = static_cast<uint32_t>(k.sync_shi.value());
  p.sync_slow = static_cast<uint32_t>(k.sync_slow.value());
  p.sync_timeout = from_ps(k.sync_timeout.value());
  read_rtl_block_params(k, p);
  p.retransmit = k.e2e_retransmit.value();
  p.retransmit_timeout = k.e2e_timeout.value();
  p.multicast_weight = static_cast<uint32_t>(k.crossbar_multicast_weight.value());
  p.surrogate_lossy_pool_units = units(k.surrogate_lossy_pool);
  p.surrogate_lossless_pool_units = units(k.surrogate_lossless_pool);
  p.surrogate_egress_pool_units = units(k.surrogate_egress_pool);
  p.surrogate_voq_threshold_units = units(k.surrogate_voq_threshold);
  if (p.sync_slow > p.sync_shi) k.sync_slow.fail("at most leaf.sync.shi = " + std::to_string(p.sync_shi));

  if (p.header_admission.red_low > p.header_admission.red_high)
    k.header_red_low.fail("at most leaf.header.red_high = " + std::to_string(p.header_admission.red_high));
  if (p.lossy_threshold_units > p.lossy_pool_units)
    k.ingress_lossy_threshold.fail("at most leaf.ingress.lossy_pool (" +
                                   std::to_string(p.lossy_pool_units * p.packet_bytes) + " B)");
  if (p.pause_qlow_units >= p.pause_qhi_units) k.pause_qlow.fail("below leaf.pause.qhi (GO must come after STOP)");
  // Pools against the largest frame and the PAUSE headroom: apply_lossless_limits.
  if (p.arbiter_quantum_units < 1) k.arbiter_quantum.fail("at least one packet");
  return p;
}

}  // namespace fabric
