#pragma once
// Every leaf parameter, declared once with its default from the spec.
#include <array>
#include <bitset>
#include <string>
#include <systemc>

#include "model/config/config.h"
#include "model/leaf/header_admission.h"
#include "model/multicast/block_impl.h"
#include "model/qcn/congestion_point.h"
#include "model/qcn/culprit_selector.h"

namespace fabric {

struct LeafParams {
  double clock_mhz = 454;
  sc_core::sc_time cycle;
  uint32_t crossbar_bytes_per_cycle = 36;
  uint32_t packet_bytes = 256;
  sc_core::sc_time traversal;                 // between the crossbar and a leaf-spine link, each way
  // The zero-load pipeline (docs/model.md, "The leaf's pipeline").
  bool concurrent_header = true;              // the CNA link delivers a frame at its first byte
  bool cut_through = true;                    // a packet crosses once it is in, not with the whole frame
  sc_core::sc_time lookup;                    // header arrival to request (FDB, MCBC, admission)
  sc_core::sc_time crossbar_latency;          // a packet or control message, port to port in the leaf
  uint32_t lossy_threshold_units = 740;       // Tth
  uint32_t lossy_pool_units = 908;            // the shared lossy pool Tth guards
  uint32_t lossless_pool_units = 908;
  uint32_t egress_pool_units = 560;
  std::array<uint32_t, 8> egress_priority_weights{1, 1, 1, 1, 1, 1, 1, 1};  // copies per turn
  bool pause_enabled = true;
  uint32_t pause_qhi_units = 640;
  uint32_t pause_qlow_units = 360;
  // STOP also when a lossless VL holds more headers; GO needs fewer too. The
  // keys' 0 means derived (apply_lossless_limits); these are the values
  // derived for the default fabric (100G, 2 m, multicast on a lossless priority).
  uint32_t pause_headers_hi = 235;
  uint32_t pause_headers_lo = 179;
  // QCN congestion points (lossless priorities)
  bool qcn_ingress = false, qcn_egress = false;
  CongestionPoint::Params cp_ingress, cp_egress;
  CulpritPolicy culprit = CulpritPolicy::arrival;
  uint32_t culprit_probes = 8;
  uint32_t header_pool_lossy = 500;
  uint32_t header_pool_lossless = 291;
  uint32_t header_memory = 2048;              // headers of the lossy VLs at a port
  HeaderAdmission::Params header_admission;   // lossy VLs
  enum class VoqDrop { off, tail, head } voq_drop = VoqDrop::head;
  uint32_t voq_threshold_units = 240;         // Vth (lossy)
  int uplink_queue_packets = 4;
  int downlink_buffer_packets = 16;
  std::string spray = "round_robin";
  uint32_t arbiter_quantum_units = 36;
  uint32_t max_frame_units = 36;
  bool coalesce_control = true;
  // Coalescing of a VOQ's requests, grants and ACKs (HoldoffBatcher): the
  // kinds (bits by ControlKind), how long a message may wait, how many ride
  // in one message.
  uint32_t control_coalesced = 0;
  sc_core::sc_time control_holdoff;
  uint32_t control_max_batch = 8;
  uint32_t control_bytes = 10;
  uint32_t control_frame_bytes = 64;          // PAUSE and CNM frames
  std::bitset<8> lossless;                    // priorities of lossless service
  // Multicast (mechanisms 2, 3 and 9)
  bool cache_enabled = true;
  uint32_t cache_entries = 128;               // C
  uint32_t cache_mirrors = 8;
  uint32_t cache_header_lag_cycles = 3;
  uint32_t cache_background_free_min = 10;
  bool sync_enabled = true;
  uint32_t sync_entries = 24;
  uint32_t sync_shi = 18;                     // packets
  uint32_t sync_slow = 12;                    // packets
  sc_core::sc_time sync_timeout;
  // Which implementation of each block (leaf.*.impl), and the RTL blocks'
  // waveforms (rtl.trace*: one leaf's blocks, within a time window).
  BlockImpl sync_impl = BlockImpl::model;
  BlockImpl cache_impl = BlockImpl::model;
  std::string rtl_trace;  // empty: no waveforms
  int rtl_trace_leaf = 0;
  int64_t rtl_trace_from_ps = 0;
  int64_t rtl_trace_until_ps = 0;
  uint32_t multicast_weight = 50;             // percent of a crossbar input multicast copies may take
  // The surrogate port's own buffers (mechanism 8)
  uint32_t surrogate_lossy_pool_units = 336;      // 84 KB
  uint32_t surrogate_lossless_pool_units = 128;   // 32 KB per VL
  uint32_t surrogate_egress_pool_units = 400;     // 100 KB per VL
  uint32_t surrogate_voq_threshold_units = 200;   // 50 KB
  // End-to-end recovery (mechanism 10): a source port retransmits a copy
  // whose ACK has not come back within the timeout.
  bool retransmit = true;
  Picos retransmit_timeout = 1'000'000'000;
  // The same parameters with the surrogate's buffers in place of a user port's.
  LeafParams for_surrogate() const;
  sc_core::sc_time stall_timeout;
};

void declare_leaf_params(config::ParamRegistry& registry);
LeafParams read_leaf_params(const config::Config& config);

}  // namespace fabric
