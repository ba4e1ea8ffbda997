#pragma once
#include <string>

#include "config/param.h"
#include "model/cna/e2e_transport.h"
#include "model/qcn/reaction_point.h"

namespace fabric {

// cna.* keys, each declared once (config/param.h).
struct CnaKeys {
  config::Param<config::Choice> scheduling{"cna.scheduling",
                                           "strict",
                                           "service of the 8 transmit queues: strict priority (7 first) or round robin",
                                           {"strict", "round_robin"}};
  config::Param<config::Integer> queue_frames{
      "cna.queue_frames",
      "64",
      "frames",
      "transmit queue per priority; while full, its flows create no frames (the server is held back)",
      1,
      1000000};
  config::Param<config::Boolean> e2e_retransmit{
      "cna.e2e.retransmit",
      "false",
      "",
      "end-to-end transport between CNAs for unicast frames: sequence numbers per (source, destination, priority), "
      "cumulative ACK frames, a NAK on a gap, go-back-N retransmission; recovers frames lost where link retry does not "
      "reach (CNA-leaf links) and any other loss",
      0,
      1};
  config::Param<config::IntList> e2e_priorities{
      "cna.e2e.priorities",
      "0-7",
      "",
      "the priorities the transport covers; go-back-N has no congestion control, so on a congested lossy priority its "
      "resends are dropped in turn (see README)",
      0,
      7};
  config::Param<config::Duration> e2e_timeout{
      "cna.e2e.timeout",
      config::Derived{"", "4 x leaf.e2e.timeout, the spec's ratio (docs/model.md, Derived keys)"},
      "ps",
      "a pair's oldest unacknowledged frame is sent again (with all after it) this long after it was sent; a gap the "
      "receiver sees is NAKed at once, so this covers lost last frames and lost NAKs; keep it above leaf.e2e.timeout "
      "so the leaves recover their own losses first (at least 1 us: below the round trip every frame would be sent "
      "again)",
      1e6,
      1e13};
  config::Param<config::Integer> e2e_ack_every{
      "cna.e2e.ack_every", "8", "frames", "a cumulative ACK frame after this many frames of a pair", 1, 1000000};
  config::Param<config::Duration> e2e_ack_delay{
      "cna.e2e.ack_delay", "2us", "ps", "or this long after the first frame not yet acknowledged", 1, 1e12};
  config::Param<config::Duration> e2e_nak_retry{
      "cna.e2e.nak_retry",
      "20us",
      "ps",
      "a receiver NAKs a gap again when frames after it still arrive this long after its last NAK (that NAK, or the "
      "frame it asked for, was lost); above the round trip with queueing, or frames are sent again needlessly",
      1,
      1e12};
  config::Param<config::Real> qcn_gd{"cna.qcn.gd",
                                     "0.0078125",
                                     "",
                                     "Gd: a CNM with feedback Fb cuts the rate by Gd * Fb (1/128: at most a halving)",
                                     0,
                                     1.0 / 63};
  config::Param<config::Rate> qcn_min_rate{
      "cna.qcn.min_rate", "0.01", "Gb/s", "a rate limiter never goes below this (10 Mb/s)", 0.000001, 1000};
  config::Param<config::Bytes> qcn_byte_cycle{
      "cna.qcn.byte_cycle", "150KB", "B", "BC_LIMIT: a byte-counter cycle every this many bytes sent", 1, 1e9};
  config::Param<config::Duration> qcn_timer{"cna.qcn.timer", "15ms", "ps", "T: a timer cycle every this long", 1, 1e15};
  config::Param<config::Integer> qcn_fast_recovery_cycles{
      "cna.qcn.fast_recovery_cycles", "5", "", "cycles of fast recovery before active increase", 0, 1000};
  config::Param<config::Rate> qcn_r_ai_at_10g{
      "cna.qcn.r_ai_at_10g", "0.005", "Gb/s", "R_AI at a 10G port (5 Mb/s); scaled with the port's rate", 0, 100};
  config::Param<config::Rate> qcn_r_hai_at_10g{
      "cna.qcn.r_hai_at_10g", "0.05", "Gb/s", "R_HAI at a 10G port (50 Mb/s); scaled with the port's rate", 0, 1000};
  config::Param<config::Duration> qcn_reaction_time{"cna.qcn.reaction_time",
                                                    "2.4us",
                                                    "ps",
                                                    "a CNM takes effect at the rate limiter this long after it arrives",
                                                    0,
                                                    1e12};
};

struct CnaParams {
  bool strict_priority = false;  // else round robin over priorities
  int queue_frames = 0;          // per priority; a full queue holds back its flows
  // QCN reaction points; line_gbps and the increases are set from the CNA
  // link's rate by the platform (scale_to_line).
  ReactionPoint::Params rp;
  E2eTransportParams e2e;
  Picos reaction_time = 0;
  double r_ai_gbps_at_10g = 0, r_hai_gbps_at_10g = 0;
  void scale_to_line(double line_gbps) {
    rp.line_gbps = line_gbps;
    rp.r_ai_gbps = r_ai_gbps_at_10g * line_gbps / 10;
    rp.r_hai_gbps = r_hai_gbps_at_10g * line_gbps / 10;
  }
};

// Its auto keys must be derived first.
CnaParams read_cna_params(const CnaKeys& keys);

}  // namespace fabric
