#include "model/cna/cna_params.h"

namespace fabric {

using config::ParamType;

void declare_cna_params(config::ParamRegistry& r) {
  r.declare({"cna.scheduling", ParamType::choice, "strict", "", "service of the 8 transmit queues: strict priority (7 first) or round robin", -1, 1, {"strict", "round_robin"}});
  r.declare({"cna.queue_frames", ParamType::integer, "64", "frames", "transmit queue per priority; while full, its flows create no frames (the server is held back)", 1, 1000000});
  r.declare({"cna.e2e.retransmit", ParamType::boolean, "false", "", "end-to-end transport between CNAs for unicast frames: sequence numbers per (source, destination, priority), cumulative ACK frames, a NAK on a gap, go-back-N retransmission; recovers frames lost where link retry does not reach (CNA-leaf links) and any other loss", 0, 1});
  r.declare({"cna.e2e.priorities", ParamType::int_list, "0-7", "", "the priorities the transport covers; go-back-N has no congestion control, so on a congested lossy priority its resends are dropped in turn (see README)", 0, 7});
  r.declare({"cna.e2e.timeout", ParamType::duration, "4ms", "ps", "a pair's oldest unacknowledged frame is sent again (with all after it) this long after it was sent; a gap the receiver sees is NAKed at once, so this covers lost last frames and lost NAKs; keep it above leaf.e2e.timeout so the leaves recover their own losses first (at least 1 us: below the round trip every frame would be sent again)", 1e6, 1e13});
  r.declare({"cna.e2e.ack_every", ParamType::integer, "8", "frames", "a cumulative ACK frame after this many frames of a pair", 1, 1000000});
  r.declare({"cna.e2e.ack_delay", ParamType::duration, "2us", "ps", "or this long after the first frame not yet acknowledged", 1, 1e12});
  r.declare({"cna.e2e.nak_retry", ParamType::duration, "20us", "ps", "a receiver NAKs a gap again when frames after it still arrive this long after its last NAK (that NAK, or the frame it asked for, was lost); above the round trip with queueing, or frames are sent again needlessly", 1, 1e12});
  r.declare({"cna.qcn.gd", ParamType::real, "0.0078125", "", "Gd: a CNM with feedback Fb cuts the rate by Gd * Fb (1/128: at most a halving)", 0, 1.0 / 63});
  r.declare({"cna.qcn.min_rate", ParamType::rate, "0.01", "Gb/s", "a rate limiter never goes below this (10 Mb/s)", 0.000001, 1000});
  r.declare({"cna.qcn.byte_cycle", ParamType::bytes, "150KB", "B", "BC_LIMIT: a byte-counter cycle every this many bytes sent", 1, 1e9});
  r.declare({"cna.qcn.timer", ParamType::duration, "15ms", "ps", "T: a timer cycle every this long", 1, 1e15});
  r.declare({"cna.qcn.fast_recovery_cycles", ParamType::integer, "5", "", "cycles of fast recovery before active increase", 0, 1000});
  r.declare({"cna.qcn.r_ai_at_10g", ParamType::rate, "0.005", "Gb/s", "R_AI at a 10G port (5 Mb/s); scaled with the port's rate", 0, 100});
  r.declare({"cna.qcn.r_hai_at_10g", ParamType::rate, "0.05", "Gb/s", "R_HAI at a 10G port (50 Mb/s); scaled with the port's rate", 0, 1000});
  r.declare({"cna.qcn.reaction_time", ParamType::duration, "2.4us", "ps", "a CNM takes effect at the rate limiter this long after it arrives", 0, 1e12});
}

CnaParams read_cna_params(const config::Config& c) {
  CnaParams p;
  p.strict_priority = c.get_choice("cna.scheduling") == "strict";
  p.queue_frames = static_cast<int>(c.get_int("cna.queue_frames"));
  p.rp.gd = c.get_real("cna.qcn.gd");
  p.rp.min_gbps = c.get_rate_gbps("cna.qcn.min_rate");
  p.rp.byte_cycle = static_cast<double>(c.get_bytes("cna.qcn.byte_cycle"));
  p.rp.timer_period = c.get_duration("cna.qcn.timer");
  p.rp.fast_recovery_cycles = static_cast<uint32_t>(c.get_int("cna.qcn.fast_recovery_cycles"));
  p.r_ai_gbps_at_10g = c.get_rate_gbps("cna.qcn.r_ai_at_10g");
  p.r_hai_gbps_at_10g = c.get_rate_gbps("cna.qcn.r_hai_at_10g");
  p.reaction_time = c.get_duration("cna.qcn.reaction_time");
  p.e2e.enabled = c.get_bool("cna.e2e.retransmit");
  p.e2e.priorities = 0;
  for (int64_t prio : c.get_int_list("cna.e2e.priorities")) p.e2e.priorities |= static_cast<uint8_t>(1u << prio);
  p.e2e.timeout = c.get_duration("cna.e2e.timeout");
  p.e2e.ack_every = static_cast<uint32_t>(c.get_int("cna.e2e.ack_every"));
  p.e2e.ack_delay = c.get_duration("cna.e2e.ack_delay");
  p.e2e.nak_retry = c.get_duration("cna.e2e.nak_retry");
  return p;
}

}  // namespace fabric
