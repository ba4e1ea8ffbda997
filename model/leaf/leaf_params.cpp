#include "model/leaf/leaf_params.h"

#include "model/core/sim_time.h"
#include "model/leaf/coalesced_controls.h"
#include "model/leaf/rtl_block_params.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

using config::ParamType;

LeafParams LeafParams::for_surrogate() const {
  LeafParams s = *this;
  s.lossy_pool_units = surrogate_lossy_pool_units;
  s.lossy_threshold_units = surrogate_lossy_pool_units - max_frame_units;  // a frame admitted below it fits
  s.lossless_pool_units = surrogate_lossless_pool_units;
  s.egress_pool_units = surrogate_egress_pool_units;
  s.voq_threshold_units = surrogate_voq_threshold_units;
  return s;
}

void declare_leaf_params(config::ParamRegistry& r) {
  r.declare({"leaf.clock_mhz", ParamType::real, "454", "MHz", "leaf core clock; cycle-level behaviour rounds to it", 1, 10000});
  r.declare({"leaf.crossbar_bytes_per_cycle", ParamType::integer, "36", "B", "width of a crossbar interface (36 B at 454 MHz = 130 Gb/s)", 1, 1024});
  r.declare({"leaf.packet_bytes", ParamType::integer, "256", "B", "fabric packet and buffer unit size", 64, 4096});
  r.declare({"leaf.traversal_latency", ParamType::duration, "50ns", "ps", "pipeline latency between the crossbar and a leaf-spine link, paid leaving a leaf and again entering one (with spine.traversal_latency it sets the ~1100 ns remote request-grant round trip)", 0, 1e9});
  r.declare({"leaf.concurrent_header", ParamType::boolean, "true", "", "a frame's header (VL, destination) arrives beside its first bytes: the leaf looks it up and requests credit while the frame is still arriving; false: only once the whole frame is in"});
  r.declare({"leaf.ingress.forwarding", ParamType::choice, "cut_through", "", "when a granted packet may cross the crossbar: as soon as its 256 B are in the ingress buffer (cut_through), or only once the whole frame is in (store_and_forward)", -1, 1, {"cut_through", "store_and_forward"}});
  r.declare({"leaf.lookup_latency", ParamType::integer, "3", "cycles", "from a frame's header at the port to its requests: FDB and MCBC lookup and admission (a port takes a new frame every 3 cycles, 6.6 ns)", 0, 1000});
  r.declare({"leaf.crossbar_latency", ParamType::integer, "8", "cycles", "pipeline latency of the crossbar between two ports of one leaf, for a packet (on top of its transfer, 8 cycles per 256 B) and for a control message (request, grant, ACK of a local copy)", 0, 1000});
  r.declare({"leaf.ingress.lossy_threshold", ParamType::bytes, "185KB", "B", "Tth: a lossy frame is dropped when the shared lossy pool holds this much", 256, 64 * 1024 * 1024});
  r.declare({"leaf.ingress.lossy_pool", ParamType::bytes, "227KB", "B", "shared pool of the lossy VLs at a user port (Tth guards it)", 256, 64 * 1024 * 1024});
  r.declare({"leaf.ingress.lossless_pool", ParamType::bytes, "227KB", "B", "private ingress pool of each lossless VL at a user port", 256, 64 * 1024 * 1024});
  r.declare({"leaf.egress.pool", ParamType::bytes, "140KB", "B", "egress pool per user port and VL, handed out as credits by the port's arbiter", 9216, 64 * 1024 * 1024});
  r.declare({"leaf.egress.priority_weights", ParamType::int_list, "1,1,1,1,1,1,1,1", "copies", "egress service weights of priorities 0..7 (weighted round robin across priorities, round robin across sources within one)", 1, 1000});
  r.declare({"leaf.pause.enable", ParamType::boolean, "true", "", "lossless priorities send PAUSE (STOP/GO) to the CNA"});
  r.declare({"leaf.pause.qhi", ParamType::bytes, "160KB", "B", "Qhi: STOP when a lossless VL pool holds more", 256, 64 * 1024 * 1024});
  r.declare({"leaf.pause.qlow", ParamType::bytes, "90KB", "B", "Qlow: GO when a lossless VL pool falls below", 0, 64 * 1024 * 1024});
  r.declare({"leaf.pause.headers_hi", ParamType::integer, "0", "headers", "STOP also when a lossless VL's header pool holds more headers (multicast and small frames run out of headers before Qhi; not given by the spec). 0: derived, the pool less the headers of the frames that can still arrive after the STOP (docs/model.md, 235 of 291 at 100G with multicast); a given value may only be lower", 0, 1000000});
  r.declare({"leaf.pause.headers_lo", ParamType::integer, "0", "headers", "GO needs the header pool below this too. 0: derived, the STOP threshold less the same headroom (at least 1)", 0, 1000000});
  r.declare({"leaf.qcn.position", ParamType::choice, "off", "", "QCN congestion points on the lossless priorities: at the ingress pools (inputs), the egress buffers (outputs, the standard), both, or off", -1, 1, {"off", "ingress", "egress", "both"}});
  r.declare({"leaf.qcn.culprit", ParamType::choice, "arrival", "", "culprit of an ingress CP's CNM: the sampled frame's flow (arrival), the flow with the most units in the pool (occupancy), or a random occupied unit's flow (random, CulpritArray); egress CPs use arrival", -1, 1, {"arrival", "occupancy", "random"}});
  r.declare({"leaf.qcn.random_probes", ParamType::integer, "8", "", "random occupancy sampling: random probes before the sequential scan", 0, 1000000});
  r.declare({"leaf.qcn.qeq_ingress", ParamType::bytes, "90KB", "B", "Qeq of an ingress CP (at most the lossless pool)", 1, 64 * 1024 * 1024});
  r.declare({"leaf.qcn.qeq_egress", ParamType::bytes, "50KB", "B", "Qeq of an egress CP (at most the egress pool)", 1, 64 * 1024 * 1024});
  r.declare({"leaf.qcn.w", ParamType::real, "2", "", "w: weight of the queue's growth in Fb = Qoff + w * Qdelta", 0, 1000});
  r.declare({"leaf.qcn.interval", ParamType::bytes, "150KB", "B", "Is: base sampling interval in arrived bytes", 1, 1e9});
  r.declare({"leaf.qcn.schedule", ParamType::choice, "standard", "", "sampling: every Is (fixed) or shorter as Fb grows, Is down to Is/10 with +-15 % jitter (standard)", -1, 1, {"standard", "fixed"}});
  r.declare({"leaf.qcn.frames_per_cnm", ParamType::integer, "100", "frames", "a CP sends at most one CNM per this many frames received", 1, 1000000});
  r.declare({"leaf.header_pool.lossy", ParamType::integer, "500", "headers", "header pool per lossy VL at an ingress port", 1, 1000000});
  r.declare({"leaf.header_pool.lossless", ParamType::integer, "291", "headers", "header pool per lossless VL at an ingress port, private (outside leaf.header_memory); at least the PAUSE headroom (docs/model.md)", 1, 1000000});
  r.declare({"leaf.header_memory", ParamType::integer, "2048", "headers", "header memory of a port for the headers of its lossy VLs together (each lossless VL has its private pool, leaf.header_pool.lossless): a lossy header drops when it is full (not given by the spec)", 1, 1000000});
  r.declare({"leaf.header.policy", ParamType::choice, "red", "", "header admission at lossy VLs: hard threshold Hth trying a frame's copies in MCBC order (fixed_order) or in a random order per frame (random_order), or RED", -1, 1, {"red", "fixed_order", "random_order"}});
  r.declare({"leaf.header.hth", ParamType::integer, "500", "headers", "Hth: with fixed_order or random_order a header drops when its VL's pool holds this many", 1, 1000000});
  r.declare({"leaf.header.red_high", ParamType::integer, "500", "headers", "Hhi: RED drops every header above this pool occupancy", 1, 1000000});
  r.declare({"leaf.header.red_low", ParamType::integer, "470", "headers", "Hlow: RED accepts every header below this pool occupancy (at most Hhi)", 0, 1000000});
  r.declare({"leaf.header.red_p", ParamType::real, "0.5", "", "RED drop probability between Hlow and Hhi", 0, 1});
  r.declare({"leaf.voq.drop", ParamType::choice, "head", "", "lossy VOQ drop when a VOQ holds Vth or more: off, tail (reject the arriving header) or head (accept it, drop the VOQ's next-to-send copy)", -1, 1, {"head", "tail", "off"}});
  r.declare({"leaf.voq.threshold", ParamType::bytes, "60KB", "B", "Vth: backlog of a lossy VOQ (copies not yet sent) at which it drops", 256, 64 * 1024 * 1024});
  r.declare({"leaf.uplink_queue_packets", ParamType::integer, "4", "packets", "queue in front of each leaf-spine link, filled by the crossbar", 1, 1024});
  r.declare({"leaf.downlink_buffer_packets", ParamType::integer, "16", "packets", "leaf input buffer behind each spine-leaf link (credits the spine holds)", 1, 1024});
  r.declare({"leaf.spray", ParamType::choice, "round_robin", "", "uplink choice per packet", -1, 1, {"round_robin", "least_loaded"}});
  r.declare({"leaf.arbiter_quantum", ParamType::bytes, "9216", "B", "deficit round robin quantum of an egress credit arbiter", 256, 1024 * 1024});
  r.declare({"leaf.e2e.retransmit", ParamType::boolean, "true", "", "end-to-end recovery: a source port retransmits a copy whose ACK has not come back within leaf.e2e.timeout; the target drops duplicates by the copy's sequence number per port pair and VL"});
  r.declare({"leaf.e2e.timeout", ParamType::duration, "1ms", "ps", "end-to-end retransmission timeout, from the copy's start; must exceed the longest wait for its ACK, which comes after the target forwards the copy: up to the egress buffer's drain time at the port rate (140 KB per VL at 10 Gb/s is 112 us per VL) plus the fabric round trip (at least 1 us: below the fabric round trip every copy would be sent again)", 1e6, 1e12});
  r.declare({"leaf.coalesce_control", ParamType::boolean, "true", "", "merge requests, grants and ACKs of the same VOQ that queue behind each other at a link"});
  r.declare(config::text_param("leaf.control.coalesce", "request,grant,ack", "", "which of a VOQ's control messages are coalesced before they are sent (comma list of request, grant, ack; empty: none): the first after a quiet spell leaves at once, later ones within the hold-off wait and merge", coalesced_controls_syntax()));
  r.declare({"leaf.control.holdoff", ParamType::duration, "100ns", "ps", "longest a VOQ's control message waits for others of its kind to merge with, counted from the last one sent (about a tenth of the ~1.1 us remote round trip: what an ACK can add to the time a copy holds its header and payload)", 0, 1e9});
  r.declare({"leaf.control.max_merged", ParamType::integer, "8", "messages", "most messages one coalesced control message carries; a full one leaves at once (a request also stays within one jumbo frame, 36 units)", 1, 1024});
  r.declare({"leaf.control_bytes", ParamType::integer, "10", "B", "size of a request, grant, ACK or link credit message", 1, 256});
  r.declare({"ethernet.control_frame_bytes", ParamType::integer, "64", "B", "size of PAUSE and CNM frames", 64, 1522});
  r.declare({"classes.lossless_priorities", ParamType::int_list, "", "", "Ethernet priorities of lossless service (PAUSE, never dropped); the others are lossy", 0, 7});
  r.declare({"leaf.cache.enable", ParamType::boolean, "true", "", "multicast packet cache at the crossbar inputs (off: every copy reads the payload through the port's own interface)"});
  r.declare({"leaf.cache.entries", ParamType::integer, "128", "packets", "C: cache entries of one packet each", 1, 4096});
  r.declare({"leaf.cache.mirrors", ParamType::integer, "8", "", "SRAM mirrors of the cache: copies replicated in parallel", 1, 64});
  r.declare({"leaf.cache.header_lag", ParamType::integer, "3", "cycles", "the first hit header follows the payload being written by this many cycles", 0, 64});
  r.declare({"leaf.cache.background_free_min", ParamType::integer, "10", "entries", "below this many free entries the controller reclaims one dead entry (no copy will read it again) per cycle", 0, 4096});
  r.declare({"leaf.sync.enable", ParamType::boolean, "true", "", "VOQ synchronization CAM at each port (keeps the subflows of a multicast flow loosely in step)"});
  r.declare({"leaf.sync.entries", ParamType::integer, "24", "", "entries of each port's VOQ sync CAM", 1, 1024});
  r.declare({"leaf.sync.shi", ParamType::integer, "18", "packets", "Shi: a VOQ more than this many packets ahead is suspended", 1, 100000});
  r.declare({"leaf.sync.slow", ParamType::integer, "12", "packets", "Slow: a suspended VOQ resumes below this many packets ahead (at most Shi)", 0, 100000});
  r.declare({"leaf.sync.timeout", ParamType::duration, "3us", "ps", "a suspended VOQ resumes after this long", 1e3, 1e12});
  declare_rtl_block_params(r);
  r.declare({"leaf.crossbar.multicast_weight", ParamType::integer, "50", "%", "share of a crossbar input multicast copies may take against the port's unicast packets (packet-size-aware WRR)", 1, 99});
  r.declare({"leaf.surrogate.lossy_pool", ParamType::bytes, "84KB", "B", "the surrogate port's shared lossy ingress pool (its Tth is this less one jumbo frame)", 18432, 64 * 1024 * 1024});
  r.declare({"leaf.surrogate.lossless_pool", ParamType::bytes, "32KB", "B", "the surrogate port's ingress pool per lossless VL; its egress hands a frame of a VL back only when it fits there (fabric-internal PAUSE)", 18432, 64 * 1024 * 1024});
  r.declare({"leaf.surrogate.egress_pool", ParamType::bytes, "100KB", "B", "the surrogate port's egress pool per VL", 9216, 64 * 1024 * 1024});
  r.declare({"leaf.surrogate.voq_threshold", ParamType::bytes, "50KB", "B", "Vth of the surrogate port's lossy VOQs", 256, 64 * 1024 * 1024});
}

LeafParams read_leaf_params(const config::Config& c) {
  LeafParams p;
  p.clock_mhz = c.get_real("leaf.clock_mhz");
  p.cycle = sc_core::sc_time(1e6 / p.clock_mhz, sc_core::SC_PS);
  p.crossbar_bytes_per_cycle = static_cast<uint32_t>(c.get_int("leaf.crossbar_bytes_per_cycle"));
  p.packet_bytes = static_cast<uint32_t>(c.get_int("leaf.packet_bytes"));
  p.traversal = from_ps(c.get_duration("leaf.traversal_latency"));
  p.concurrent_header = c.get_bool("leaf.concurrent_header");
  p.cut_through = c.get_choice("leaf.ingress.forwarding") == "cut_through";
  p.lookup = p.cycle * static_cast<double>(c.get_int("leaf.lookup_latency"));
  p.crossbar_latency = p.cycle * static_cast<double>(c.get_int("leaf.crossbar_latency"));
  auto units = [&](const char* key) {
    return static_cast<uint32_t>((c.get_bytes(key) + p.packet_bytes - 1) / p.packet_bytes);
  };
  p.lossy_threshold_units = units("leaf.ingress.lossy_threshold");
  p.lossless_pool_units = units("leaf.ingress.lossless_pool");
  p.lossy_pool_units = units("leaf.ingress.lossy_pool");
  p.egress_pool_units = units("leaf.egress.pool");
  const std::vector<int64_t> weights = c.get_int_list("leaf.egress.priority_weights");
  if (weights.size() != p.egress_priority_weights.size())
    c.fail("leaf.egress.priority_weights", "8 weights, one per priority 0..7, each 1 .. 1000");
  for (size_t i = 0; i < weights.size(); ++i) p.egress_priority_weights[i] = static_cast<uint32_t>(weights[i]);
  p.pause_enabled = c.get_bool("leaf.pause.enable");
  p.pause_qhi_units = units("leaf.pause.qhi");
  p.pause_qlow_units = static_cast<uint32_t>(c.get_bytes("leaf.pause.qlow") / p.packet_bytes);
  p.pause_headers_hi = static_cast<uint32_t>(c.get_int("leaf.pause.headers_hi"));
  p.pause_headers_lo = static_cast<uint32_t>(c.get_int("leaf.pause.headers_lo"));
  const std::string position = c.get_choice("leaf.qcn.position");
  p.qcn_ingress = position == "ingress" || position == "both";
  p.qcn_egress = position == "egress" || position == "both";
  if (p.qcn_ingress || p.qcn_egress) {
    p.culprit = parse_culprit_policy(c.get_choice("leaf.qcn.culprit"));
    p.culprit_probes = static_cast<uint32_t>(c.get_int("leaf.qcn.random_probes"));
    CongestionPoint::Params cp;
    cp.w = c.get_real("leaf.qcn.w");
    cp.interval_bytes = static_cast<double>(c.get_bytes("leaf.qcn.interval"));
    cp.schedule = c.get_choice("leaf.qcn.schedule") == "fixed" ? CongestionPoint::Schedule::fixed
                                                              : CongestionPoint::Schedule::standard;
    cp.frames_per_cnm = static_cast<uint32_t>(c.get_int("leaf.qcn.frames_per_cnm"));
    p.cp_ingress = p.cp_egress = cp;
    p.cp_ingress.qeq_bytes = static_cast<double>(c.get_bytes("leaf.qcn.qeq_ingress"));
    p.cp_egress.qeq_bytes = static_cast<double>(c.get_bytes("leaf.qcn.qeq_egress"));
    const double lossless_pool = double(p.lossless_pool_units) * p.packet_bytes;
    const double egress_pool = double(p.egress_pool_units) * p.packet_bytes;
    if (p.cp_ingress.qeq_bytes > lossless_pool)
      c.fail("leaf.qcn.qeq_ingress", "1 B .. leaf.ingress.lossless_pool (" + std::to_string(int64_t(lossless_pool)) + " B)");
    if (p.cp_egress.qeq_bytes > egress_pool)
      c.fail("leaf.qcn.qeq_egress", "1 B .. leaf.egress.pool (" + std::to_string(int64_t(egress_pool)) + " B)");
  }
  p.header_pool_lossy = static_cast<uint32_t>(c.get_int("leaf.header_pool.lossy"));
  p.header_pool_lossless = static_cast<uint32_t>(c.get_int("leaf.header_pool.lossless"));
  p.header_memory = static_cast<uint32_t>(c.get_int("leaf.header_memory"));
  p.header_admission.policy = HeaderAdmission::parse(c.get_choice("leaf.header.policy"));
  p.header_admission.hth = static_cast<uint32_t>(c.get_int("leaf.header.hth"));
  p.header_admission.red_high = static_cast<uint32_t>(c.get_int("leaf.header.red_high"));
  p.header_admission.red_low = static_cast<uint32_t>(c.get_int("leaf.header.red_low"));
  p.header_admission.red_p = c.get_real("leaf.header.red_p");
  const std::string voq_drop = c.get_choice("leaf.voq.drop");
  p.voq_drop = voq_drop == "off" ? LeafParams::VoqDrop::off
               : voq_drop == "tail" ? LeafParams::VoqDrop::tail : LeafParams::VoqDrop::head;
  p.voq_threshold_units = units("leaf.voq.threshold");
  p.uplink_queue_packets = static_cast<int>(c.get_int("leaf.uplink_queue_packets"));
  p.downlink_buffer_packets = static_cast<int>(c.get_int("leaf.downlink_buffer_packets"));
  p.spray = c.get_choice("leaf.spray");
  p.arbiter_quantum_units = units("leaf.arbiter_quantum");
  p.max_frame_units = (9216 + p.packet_bytes - 1) / p.packet_bytes;
  p.coalesce_control = c.get_bool("leaf.coalesce_control");
  p.control_coalesced = parse_coalesced_controls("leaf.control.coalesce", c.get_text("leaf.control.coalesce"));
  p.control_holdoff = from_ps(c.get_duration("leaf.control.holdoff"));
  p.control_max_batch = static_cast<uint32_t>(c.get_int("leaf.control.max_merged"));
  p.control_bytes = static_cast<uint32_t>(c.get_int("leaf.control_bytes"));
  p.control_frame_bytes = static_cast<uint32_t>(c.get_int("ethernet.control_frame_bytes"));
  for (int64_t prio : c.get_int_list("classes.lossless_priorities")) p.lossless.set(static_cast<size_t>(prio));
  p.stall_timeout = from_ps(c.get_duration("sim.stall_timeout"));
  p.cache_enabled = c.get_bool("leaf.cache.enable");
  p.cache_entries = static_cast<uint32_t>(c.get_int("leaf.cache.entries"));
  p.cache_mirrors = static_cast<uint32_t>(c.get_int("leaf.cache.mirrors"));
  p.cache_header_lag_cycles = static_cast<uint32_t>(c.get_int("leaf.cache.header_lag"));
  p.cache_background_free_min = static_cast<uint32_t>(c.get_int("leaf.cache.background_free_min"));
  p.sync_enabled = c.get_bool("leaf.sync.enable");
  p.sync_entries = static_cast<uint32_t>(c.get_int("leaf.sync.entries"));
  p.sync_shi = static_cast<uint32_t>(c.get_int("leaf.sync.shi"));
  p.sync_slow = static_cast<uint32_t>(c.get_int("leaf.sync.slow"));
  p.sync_timeout = from_ps(c.get_duration("leaf.sync.timeout"));
  read_rtl_block_params(c, p);
  p.retransmit = c.get_bool("leaf.e2e.retransmit");
  p.retransmit_timeout = c.get_duration("leaf.e2e.timeout");
  p.multicast_weight = static_cast<uint32_t>(c.get_int("leaf.crossbar.multicast_weight"));
  p.surrogate_lossy_pool_units = units("leaf.surrogate.lossy_pool");
  p.surrogate_lossless_pool_units = units("leaf.surrogate.lossless_pool");
  p.surrogate_egress_pool_units = units("leaf.surrogate.egress_pool");
  p.surrogate_voq_threshold_units = units("leaf.surrogate.voq_threshold");
  if (p.sync_slow > p.sync_shi) c.fail("leaf.sync.slow", "at most leaf.sync.shi = " + std::to_string(p.sync_shi));

  if (p.header_admission.red_low > p.header_admission.red_high)
    c.fail("leaf.header.red_low", "at most leaf.header.red_high = " + std::to_string(p.header_admission.red_high));
  if (p.lossy_threshold_units > p.lossy_pool_units)
    c.fail("leaf.ingress.lossy_threshold", "at most leaf.ingress.lossy_pool (" +
                                               std::to_string(p.lossy_pool_units * p.packet_bytes) + " B)");
  if (p.pause_qlow_units >= p.pause_qhi_units)
    c.fail("leaf.pause.qlow", "below leaf.pause.qhi (GO must come after STOP)");
  // Pools against the largest frame and the PAUSE headroom: apply_lossless_limits.
  if (p.arbiter_quantum_units < 1) c.fail("leaf.arbiter_quantum", "at least one packet");
  return p;
}

}  // namespace fabric
