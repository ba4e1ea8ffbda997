#pragma once
// Every leaf key, declared once with its default from the spec
// (config/param.h); read into LeafParams by read_leaf_params (leaf_params.h).
#include <string>

#include "config/param.h"
#include "model/leaf/rtl_block_params.h"

namespace fabric {

struct LeafKeys {
  config::Param<config::Real> clock_mhz{
      "leaf.clock_mhz", "454", "MHz", "leaf core clock; cycle-level behaviour rounds to it", 1, 10000};
  config::Param<config::Integer> crossbar_bytes_per_cycle{"leaf.crossbar_bytes_per_cycle",
                                                          "36",
                                                          "B",
                                                          "width of a crossbar interface (36 B at 454 MHz = 130 Gb/s)",
                                                          1,
                                                          1024};
  config::Param<config::Integer> packet_bytes{
      "leaf.packet_bytes", "256", "B", "fabric packet and buffer unit size", 64, 4096};
  config::Param<config::Duration> traversal_latency{
      "leaf.traversal_latency",
      "50ns",
      "ps",
      "pipeline latency between the crossbar and a leaf-spine link, paid leaving a leaf and again entering one (with "
      "spine.traversal_latency it sets the ~1100 ns remote request-grant round trip)",
      0,
      1e9};
  config::Param<config::Boolean> concurrent_header{
      "leaf.concurrent_header", "true", "",
      "a frame's header (VL, destination) arrives beside its first bytes: the leaf looks it up and requests credit "
      "while the frame is still arriving; false: only once the whole frame is in"};
  config::Param<config::Choice> ingress_forwarding{
      "leaf.ingress.forwarding",
      "store_and_forward",
      "when a granted packet may cross the crossbar: only once the whole frame is in the ingress buffer "
      "(store_and_forward, the chip: the published local latencies need it), or as soon as its 256 B are in "
      "(cut_through)",
      {"cut_through", "store_and_forward"}};
  config::Param<config::Integer> lookup_latency{
      "leaf.lookup_latency",
      "3",
      "cycles",
      "from a frame's header at the port to its requests: FDB and MCBC lookup and admission (a port takes a new frame "
      "every 3 cycles, 6.6 ns)",
      0,
      1000};
  config::Param<config::Integer> crossbar_latency{
      "leaf.crossbar_latency",
      "8",
      "cycles",
      "pipeline latency of the crossbar between two ports of one leaf, for a packet (on top of its transfer, 8 cycles "
      "per 256 B) and for a control message (request, grant, ACK of a local copy)",
      0,
      1000};
  config::Param<config::Bytes> ingress_lossy_threshold{
      "leaf.ingress.lossy_threshold",
      "185KB",
      "B",
      "Tth: a lossy frame is dropped when the shared lossy pool holds this much",
      256,
      64 * 1024 * 1024};
  config::Param<config::Bytes> ingress_lossy_pool{
      "leaf.ingress.lossy_pool", "227KB", "B", "shared pool of the lossy VLs at a user port (Tth guards it)", 256,
      64 * 1024 * 1024};
  config::Param<config::Bytes> ingress_lossless_pool{"leaf.ingress.lossless_pool",
                                                     "227KB",
                                                     "B",
                                                     "private ingress pool of each lossless VL at a user port",
                                                     256,
                                                     64 * 1024 * 1024};
  config::Param<config::Bytes> egress_pool{
      "leaf.egress.pool",
      "140KB",
      "B",
      "egress pool per user port and VL, handed out as credits by the port's arbiter",
      9216,
      64 * 1024 * 1024};
  config::Param<config::IntList> egress_priority_weights{
      "leaf.egress.priority_weights",
      "1,1,1,1,1,1,1,1",
      "copies",
      "egress service weights of priorities 0..7 (weighted round robin across priorities, round robin across sources "
      "within one)",
      1,
      1000};
  config::Param<config::Boolean> pause_enable{"leaf.pause.enable", "true", "",
                                              "lossless priorities send PAUSE (STOP/GO) to the CNA"};
  config::Param<config::Bytes> pause_qhi{
      "leaf.pause.qhi", "160KB", "B", "Qhi: STOP when a lossless VL pool holds more", 256, 64 * 1024 * 1024};
  config::Param<config::Bytes> pause_qlow{
      "leaf.pause.qlow", "90KB", "B", "Qlow: GO when a lossless VL pool falls below", 0, 64 * 1024 * 1024};
  config::Param<config::Integer> pause_headers_hi{
      "leaf.pause.headers_hi",
      "0",
      "headers",
      "STOP also when a lossless VL's header pool holds more headers (multicast and small frames run out of headers "
      "before Qhi; not given by the spec). 0: derived, the pool less the headers of the frames that can still arrive "
      "after the STOP (docs/model.md, 235 of 291 at 100G with multicast); a given value may only be lower",
      0,
      1000000};
  config::Param<config::Integer> pause_headers_lo{
      "leaf.pause.headers_lo",
      "0",
      "headers",
      "GO needs the header pool below this too. 0: derived, the STOP threshold less the same headroom (at least 1)",
      0,
      1000000};
  config::Param<config::Choice> qcn_position{"leaf.qcn.position",
                                             "off",
                                             "QCN congestion points on the lossless priorities: at the ingress pools "
                                             "(inputs), the egress buffers (outputs, the standard), both, or off",
                                             {"off", "ingress", "egress", "both"}};
  config::Param<config::Choice> qcn_culprit{
      "leaf.qcn.culprit",
      "arrival",
      "culprit of an ingress CP's CNM: the sampled frame's flow (arrival), the flow with the most units in the pool "
      "(occupancy), or a random occupied unit's flow (random, CulpritArray); egress CPs use arrival",
      {"arrival", "occupancy", "random"}};
  config::Param<config::Integer> qcn_random_probes{
      "leaf.qcn.random_probes",
      "8",
      "",
      "random occupancy sampling: random probes before the sequential scan",
      0,
      1000000};
  config::Param<config::Bytes> qcn_qeq_ingress{
      "leaf.qcn.qeq_ingress", "90KB", "B", "Qeq of an ingress CP (at most the lossless pool)", 1, 64 * 1024 * 1024};
  config::Param<config::Bytes> qcn_qeq_egress{
      "leaf.qcn.qeq_egress", "50KB", "B", "Qeq of an egress CP (at most the egress pool)", 1, 64 * 1024 * 1024};
  config::Param<config::Real> qcn_w{
      "leaf.qcn.w", "2", "", "w: weight of the queue's growth in Fb = Qoff + w * Qdelta", 0, 1000};
  config::Param<config::Bytes> qcn_interval{
      "leaf.qcn.interval", "150KB", "B", "Is: base sampling interval in arrived bytes", 1, 1e9};
  config::Param<config::Choice> qcn_schedule{
      "leaf.qcn.schedule",
      "standard",
      "sampling: every Is (fixed) or shorter as Fb grows, Is down to Is/10 with +-15 % jitter (standard)",
      {"standard", "fixed"}};
  config::Param<config::Integer> qcn_frames_per_cnm{"leaf.qcn.frames_per_cnm",
                                                    "100",
                                                    "frames",
                                                    "a CP sends at most one CNM per this many frames received",
                                                    1,
                                                    1000000};
  config::Param<config::Integer> header_pool_lossy{
      "leaf.header_pool.lossy", "500", "headers", "header pool per lossy VL at an ingress port", 1, 1000000};
  config::Param<config::Integer> header_pool_lossless{
      "leaf.header_pool.lossless",
      "291",
      "headers",
      "header pool per lossless VL at an ingress port, private (outside leaf.header_memory); at least the PAUSE "
      "headroom (docs/model.md)",
      1,
      1000000};
  config::Param<config::Integer> header_memory{
      "leaf.header_memory",
      "2048",
      "headers",
      "header memory of a port for the headers of its lossy VLs together (each lossless VL has its private pool, "
      "leaf.header_pool.lossless): a lossy header drops when it is full (not given by the spec)",
      1,
      1000000};
  config::Param<config::Choice> header_policy{
      "leaf.header.policy",
      "red",
      "header admission at lossy VLs: hard threshold Hth trying a frame's copies in MCBC order (fixed_order) or in a "
      "random order per frame (random_order), or RED",
      {"red", "fixed_order", "random_order"}};
  config::Param<config::Integer> header_hth{
      "leaf.header.hth",
      "500",
      "headers",
      "Hth: with fixed_order or random_order a header drops when its VL's pool holds this many",
      1,
      1000000};
  config::Param<config::Integer> header_red_high{
      "leaf.header.red_high", "500", "headers", "Hhi: RED drops every header above this pool occupancy", 1, 1000000};
  config::Param<config::Integer> header_red_low{
      "leaf.header.red_low",
      "470",
      "headers",
      "Hlow: RED accepts every header below this pool occupancy (at most Hhi)",
      0,
      1000000};
  config::Param<config::Real> header_red_p{
      "leaf.header.red_p", "0.5", "", "RED drop probability between Hlow and Hhi", 0, 1};
  config::Param<config::Choice> voq_drop{"leaf.voq.drop",
                                         "head",
                                         "lossy VOQ drop when a VOQ holds Vth or more: off, tail (reject the arriving "
                                         "header) or head (accept it, drop the VOQ's next-to-send copy)",
                                         {"head", "tail", "off"}};
  config::Param<config::Bytes> voq_threshold{
      "leaf.voq.threshold", "60KB", "B", "Vth: backlog of a lossy VOQ (copies not yet sent) at which it drops", 256,
      64 * 1024 * 1024};
  config::Param<config::Choice> dropped_copy_credit{
      "leaf.voq.dropped_copy_credit",
      "withdraw",
      "what becomes of the credit asked for a copy dropped from the VOQ head (grants are credits in units to the "
      "requesting VOQ): withdraw (the VOQ withdraws as many units of its newest requests not yet granted at the "
      "target's arbiter, and returns what the arbiter had granted already: it never holds credit beyond what its "
      "copies asked for); per_copy (each copy is sent only on the grant of its own request; a dropped copy's request "
      "is withdrawn, or its grant returned); keep (the VOQ keeps the credit and its requests: a surplus that carries "
      "its later copies while it has copies waiting, counted in copies_on_surplus_credit; the model before issue 50)",
      {"withdraw", "per_copy", "keep"}};
  config::Param<config::Integer> uplink_queue_packets{"leaf.uplink_queue_packets",
                                                      "4",
                                                      "packets",
                                                      "queue in front of each leaf-spine link, filled by the crossbar",
                                                      1,
                                                      1024};
  config::Param<config::Integer> downlink_buffer_packets{
      "leaf.downlink_buffer_packets",
      config::Derived{"16",
                      "max(the spec's 16, 1.5 x the packets a spine-leaf link sends in its credit round trip: 2 x the "
                      "cable's flight + a packet each way + leaf.traversal_latency + link.credit_delay + a credit "
                      "message) (docs/model.md, Derived keys)"},
      "packets",
      "leaf input buffer behind each spine-leaf link (credits the spine holds)",
      1,
      1024};
  config::Param<config::Choice> spray{
      "leaf.spray", "round_robin", "uplink choice per packet", {"round_robin", "least_loaded"}};
  config::Param<config::Bytes> arbiter_quantum{
      "leaf.arbiter_quantum", "9216", "B", "deficit round robin quantum of an egress credit arbiter", 256, 1024 * 1024};
  config::Param<config::Boolean> e2e_retransmit{
      "leaf.e2e.retransmit", "true", "",
      "end-to-end recovery: a source port retransmits a copy whose ACK has not come back within leaf.e2e.timeout; the "
      "target drops duplicates by the copy's sequence number per port pair and VL"};
  config::Param<config::Duration> e2e_timeout{
      "leaf.e2e.timeout",
      config::Derived{"1ms",
                      "max(the spec's 1 ms, 1.5 x (an egress pool's drain time at the user port rate + the fabric "
                      "round trip between leaves)) (docs/model.md, Derived keys)"},
      "ps",
      "end-to-end retransmission timeout, from the copy's start; must exceed the longest wait for its ACK, which comes "
      "after the target forwards the copy: up to the egress buffer's drain time at the port rate (140 KB per VL at 10 "
      "Gb/s is 112 us per VL) plus the fabric round trip (at least 1 us: below the fabric round trip every copy would "
      "be sent again)",
      1e6,
      1e12};
  config::Param<config::Boolean> coalesce_control{
      "leaf.control.merge_queued", "true", "",
      "merge requests, grants and ACKs of the same VOQ that queue behind each other at a link (until a link slot takes "
      "them; leaf.control.coalesce is the hold-off before they queue). Formerly leaf.coalesce_control"};
  config::Param<config::Text> control_coalesce{
      "leaf.control.coalesce", "request,ack", "",
      "which of a VOQ's control messages are coalesced before they are sent (comma list of request, grant, ack; empty: "
      "none): the first after a quiet spell leaves at once, later ones within the hold-off wait and merge. Default "
      "requests and ACKs: a held request only adds demand the arbiter still holds, an ACK is cumulative; a held grant "
      "would idle the source's link and the egress room it reserves (issue 51: holding grants too dropped E10's 512 B "
      "broadcast and flattened E3a)",
      coalesced_controls_syntax()};
  config::Param<config::Duration> control_holdoff{
      "leaf.control.holdoff",
      "650ns",
      "ps",
      "longest a VOQ's control message waits for others of its kind to merge with, counted from the last one sent; the "
      "first after a quiet spell leaves at once. Calibrated on the one published measurement of it: a remote copy of "
      "E3's 99G flow is ACKed about 3.5 us after admission (E11's calibration table)",
      0,
      1e9};
  config::Param<config::Integer> control_max_merged{
      "leaf.control.max_merged",
      "8",
      "messages",
      "most messages one coalesced control message carries; a full one leaves at once (a request also stays within one "
      "jumbo frame, 36 units)",
      1,
      1024};
  config::Param<config::Integer> control_bytes{
      "leaf.control_bytes", "10", "B", "size of a request, grant, ACK or link credit message", 1, 256};
  config::Param<config::Integer> ethernet_control_frame_bytes{"ethernet.control_frame_bytes", "64", "B",
                                                              "size of PAUSE and CNM frames", 64,   1522};
  config::Param<config::IntList> classes_lossless_priorities{
      "classes.lossless_priorities",
      "",
      "",
      "Ethernet priorities of lossless service (PAUSE, never dropped); the others are lossy",
      0,
      7};
  config::Param<config::Boolean> cache_enable{"leaf.cache.enable", "true", "",
                                              "multicast packet cache at the crossbar inputs (off: every copy reads "
                                              "the payload through the port's own interface)"};
  config::Param<config::Integer> cache_entries{
      "leaf.cache.entries", "128", "packets", "C: cache entries of one packet each", 1, 4096};
  config::Param<config::Integer> cache_mirrors{
      "leaf.cache.mirrors", "8", "", "SRAM mirrors of the cache: copies replicated in parallel", 1, 64};
  config::Param<config::Integer> cache_header_lag{
      "leaf.cache.header_lag",
      "3",
      "cycles",
      "the first hit header follows the payload being written by this many cycles",
      0,
      64};
  config::Param<config::Integer> cache_background_free_min{
      "leaf.cache.background_free_min",
      "10",
      "entries",
      "below this many free entries the controller frees one entry with no outstanding headers per cycle "
      "(leaf.cache.background_evict says which)",
      0,
      4096};
  config::Param<config::Choice> cache_background_evict{
      "leaf.cache.background_evict",
      "idle",
      "which entry the controller frees in the background: a dead one (no copy will read it again) first, else the "
      "least recently used live one whose write and reads have completed, its next copies missing (idle: the text of "
      "the paper's Fig. 4(c)); or dead ones only (dead)",
      {"idle", "dead"}};
  config::Param<config::Boolean> sync_enable{
      "leaf.sync.enable", "true", "",
      "VOQ synchronization CAM at each port (keeps the subflows of a multicast flow loosely in step)"};
  config::Param<config::Integer> sync_entries{
      "leaf.sync.entries", "24", "", "entries of each port's VOQ sync CAM", 1, 1024};
  config::Param<config::Integer> sync_shi{
      "leaf.sync.shi", "18", "packets", "Shi: a VOQ more than this many packets ahead is suspended", 1, 100000};
  config::Param<config::Integer> sync_slow{"leaf.sync.slow",
                                           "12",
                                           "packets",
                                           "Slow: a suspended VOQ resumes below this many packets ahead (at most Shi)",
                                           0,
                                           100000};
  config::Param<config::Duration> sync_timeout{
      "leaf.sync.timeout", "3us", "ps", "a suspended VOQ resumes after this long", 1e3, 1e12};
  RtlBlockKeys rtl;
  config::Param<config::Integer> crossbar_multicast_weight{
      "leaf.crossbar.multicast_weight",
      "50",
      "%",
      "share of a crossbar input multicast copies may take against the port's unicast packets (packet-size-aware WRR)",
      1,
      99};
  config::Param<config::Bytes> surrogate_lossy_pool{
      "leaf.surrogate.lossy_pool",
      "84KB",
      "B",
      "the surrogate port's shared lossy ingress pool (its Tth is this less one jumbo frame)",
      18432,
      64 * 1024 * 1024};
  config::Param<config::Bytes> surrogate_lossless_pool{
      "leaf.surrogate.lossless_pool",
      "32KB",
      "B",
      "the surrogate port's ingress pool per lossless VL; its egress hands a frame of a VL back only when it fits "
      "there (fabric-internal PAUSE)",
      18432,
      64 * 1024 * 1024};
  config::Param<config::Bytes> surrogate_egress_pool{
      "leaf.surrogate.egress_pool", "100KB", "B", "the surrogate port's egress pool per VL", 9216, 64 * 1024 * 1024};
  config::Param<config::Bytes> surrogate_voq_threshold{
      "leaf.surrogate.voq_threshold", "50KB", "B", "Vth of the surrogate port's lossy VOQs", 256, 64 * 1024 * 1024};
};

}  // namespace fabric
