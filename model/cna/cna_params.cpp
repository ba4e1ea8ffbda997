#include "model/cna/cna_params.h"

namespace fabric {

CnaParams read_cna_params(const CnaKeys& k) {
  CnaParams p;
  p.strict_priority = k.scheduling.value() == "strict";
  p.queue_frames = static_cast<int>(k.queue_frames.value());
  p.rp.gd = k.qcn_gd;
  p.rp.min_gbps = k.qcn_min_rate;
  p.rp.byte_cycle = static_cast<double>(k.qcn_byte_cycle.value());
  p.rp.timer_period = k.qcn_timer;
  p.rp.fast_recovery_cycles = static_cast<uint32_t>(k.qcn_fast_recovery_cycles.value());
  p.r_ai_gbps_at_10g = k.qcn_r_ai_at_10g;
  p.r_hai_gbps_at_10g = k.qcn_r_hai_at_10g;
  p.reaction_time = k.qcn_reaction_time;
  p.e2e.enabled = k.e2e_retransmit;
  p.e2e.priorities = 0;
  for (int64_t prio : k.e2e_priorities.value()) p.e2e.priorities |= static_cast<uint8_t>(1u << prio);
  p.e2e.timeout = k.e2e_timeout;
  p.e2e.ack_every = static_cast<uint32_t>(k.e2e_ack_every.value());
  p.e2e.ack_delay = k.e2e_ack_delay;
  p.e2e.nak_retry = k.e2e_nak_retry;
  return p;
}

}  // namespace fabric
