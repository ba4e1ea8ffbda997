#pragma once
// The leaf's parameters, read from its keys (leaf_keys.h).
#include <array>
#include <bitset>
#include <string>
#include <systemc>

#include "config/param.h"
#include "model/leaf/coalesced_controls.h"
#include "model/leaf/header_admission.h"
#include "model/leaf/leaf_keys.h"
#include "model/leaf/rtl_block_params.h"
#include "model/leaf/voq_drop_policy.h"
#include "model/multicast/block_impl.h"
#include "model/qcn/congestion_point.h"
#include "model/qcn/culprit_selector.h"

namespace fabric {

// What the leaf's units read, from LeafKeys (read_leaf_params). No member
// holds a default of its own: the keys do (a unit test starts from
// testing::spec_leaf_params()).
struct LeafParams {
  double clock_mhz = 0;
  sc_core::sc_time cycle;
  uint32_t crossbar_bytes_per_cycle = 0;
  uint32_t packet_bytes = 0;
  sc_core::sc_time traversal;  // between the crossbar and a leaf-spine link, each way
  // The zero-load pipeline (docs/model.md, "The leaf's pipeline").
  bool concurrent_header = false;      // the CNA link delivers a frame at its first byte
  bool cut_through = false;            // a packet crosses once it is in, not with the whole frame
  sc_core::sc_time lookup;             // header arrival to request (FDB, MCBC, admission)
  sc_core::sc_time crossbar_latency;   // a packet or control message, port to port in the leaf
  uint32_t lossy_threshold_units = 0;  // Tth
  uint32_t lossy_pool_units = 0;       // the shared lossy pool Tth guards
  uint32_t lossless_pool_units = 0;
  uint32_t egress_pool_units = 0;
  std::array<uint32_t, 8> egress_priority_weights{};  // copies per turn
  bool pause_enabled = false;
  // The latest a frame sent before a STOP reached the CNA is admitted after
  // the STOP (pause_window_ps with the largest frame ahead of the PAUSE):
  // the invariant "paused priority sends nothing". 0: not checked.
  Picos pause_obeyed_within = 0;
  uint32_t pause_qhi_units = 0;
  uint32_t pause_qlow_units = 0;
  // STOP also when a lossless VL holds more headers; GO needs fewer too (the
  // keys' 0 means derived: apply_lossless_limits).
  uint32_t pause_headers_hi = 0;
  uint32_t pause_headers_lo = 0;
  // QCN congestion points (lossless priorities)
  bool qcn_ingress = false, qcn_egress = false;
  CongestionPoint::Params cp_ingress, cp_egress;
  CulpritPolicy culprit = CulpritPolicy::arrival;
  uint32_t culprit_probes = 0;
  uint32_t header_pool_lossy = 0;
  uint32_t header_pool_lossless = 0;
  uint32_t header_memory = 0;                // headers of the lossy VLs at a port
  HeaderAdmission::Params header_admission;  // lossy VLs
  using VoqDrop = VoqDropPolicy::Kind;       // leaf.voq.drop: the policy at Vth (voq_drop_policy.h)
  VoqDrop voq_drop = VoqDrop::off;
  uint32_t voq_threshold_units = 0;  // Vth (lossy)
  // What becomes of a dropped copy's credit (leaf.voq.dropped_copy_credit).
  enum class DroppedCredit { withdraw, per_copy, keep } dropped_credit = DroppedCredit::withdraw;
  int uplink_queue_packets = 0;
  int downlink_buffer_packets = 0;
  std::string spray;
  uint32_t arbiter_quantum_units = 0;
  uint32_t max_frame_units = 0;
  bool coalesce_control = false;
  // Coalescing of a VOQ's requests, grants and ACKs (HoldoffBatcher): the
  // kinds (bits by ControlKind), how long a message may wait, how many ride
  // in one message.
  uint32_t control_coalesced = 0;
  sc_core::sc_time control_holdoff;
  uint32_t control_max_batch = 0;
  uint32_t control_bytes = 0;
  uint32_t control_frame_bytes = 0;  // PAUSE and CNM frames
  std::bitset<8> lossless;           // priorities of lossless service
  // Multicast (mechanisms 2, 3 and 9)
  bool cache_enabled = false;
  uint32_t cache_entries = 0;  // C
  uint32_t cache_mirrors = 0;
  uint32_t cache_header_lag_cycles = 0;
  uint32_t cache_background_free_min = 0;
  bool cache_background_evicts_live = false;
  bool sync_enabled = false;
  uint32_t sync_entries = 0;
  uint32_t sync_shi = 0;   // packets
  uint32_t sync_slow = 0;  // packets
  sc_core::sc_time sync_timeout;
  // Which implementation of each block (leaf.*.impl), and the RTL blocks'
  // waveforms (rtl.trace*: one leaf's blocks, within a time window).
  BlockImpl sync_impl = BlockImpl::model;
  BlockImpl cache_impl = BlockImpl::model;
  std::string rtl_trace;  // empty: no waveforms
  int rtl_trace_leaf = 0;
  int64_t rtl_trace_from_ps = 0;
  int64_t rtl_trace_until_ps = 0;
  uint32_t multicast_weight = 0;  // percent of a crossbar input multicast copies may take
  // The surrogate port's own buffers (mechanism 8)
  uint32_t surrogate_lossy_pool_units = 0;     // 84 KB
  uint32_t surrogate_lossless_pool_units = 0;  // 32 KB per VL
  uint32_t surrogate_egress_pool_units = 0;    // 100 KB per VL
  uint32_t surrogate_voq_threshold_units = 0;  // 50 KB
  // End-to-end recovery (mechanism 10): a source port retransmits a copy
  // whose ACK has not come back within the timeout.
  bool retransmit = false;
  Picos retransmit_timeout = 0;
  // The same parameters with the surrogate's buffers in place of a user port's.
  LeafParams for_surrogate() const;
  sc_core::sc_time stall_timeout;
};

// Its auto keys must be derived first; `stall_timeout` is sim.stall_timeout.
LeafParams read_leaf_params(const LeafKeys& keys, Picos stall_timeout);

}  // namespace fabric
