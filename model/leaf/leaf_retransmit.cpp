// Leaf: end-to-end recovery (mechanism 10). Each copy a source port starts
// has a timer; if its cumulative ACK has not come back when the timer falls
// due and it is its VOQ's oldest copy in flight, the port cuts the copy into
// packets again, ahead of new copies, over
// the same egress units its grant reserved at the target (the target holds
// them until the copy is complete). The target drops packets it already has
// and, for a copy it has forwarded, sends the cumulative ACK again.
#include <string>

#include "model/core/sim_time.h"
#include "model/leaf/leaf.h"

namespace fabric {

void Leaf::arm_retransmit(int k, uint32_t voq, uint32_t copy_seq) {
  if (!retransmit_) return;
  if (retransmit_->arm(now_ps(), k, voq, copy_seq)) retransmit_wakeup_->at(retransmit_->next_due());
}

void Leaf::retransmit_step() {
  const Picos now = now_ps();
  retransmit_->expire(now, [&](int k, uint32_t voq, uint32_t copy_seq) {
    const std::optional<uint32_t> slot = ingress_[k].in_flight_slot(voq, copy_seq);
    if (!slot) return false;  // acknowledged in time
    // The target forwards a VOQ's copies in order: a later copy's ACK waits
    // for the oldest one's. Only the oldest is sent again; the others wait
    // one more timeout.
    if (copy_seq != LeafIngress::oldest_in_flight(ingress_[k].voq(voq))) return true;
    CrossbarInput& in = inputs_[k];
    in.resend.emplace_back(voq, copy_seq);
    ++retransmissions_[k];
    const StoredFrame& f = ingress_[k].frame(*slot);
    recorder_.event(now, EventKind::retransmission, "port" + std::to_string(raw(port(k))), raw(f.flow),
                    raw(ingress_[k].voq(voq).target));
    in.wakeup->at(std::max(now, in.free_at));
    return true;
  });
  if (!retransmit_->empty()) retransmit_wakeup_->at(retransmit_->next_due());
}

bool Leaf::take_resend(int k) {
  CrossbarInput& in = inputs_[k];
  while (!in.resend.empty()) {
    const auto [voq, copy_seq] = in.resend.front();
    in.resend.pop_front();
    const std::optional<uint32_t> slot = ingress_[k].in_flight_slot(voq, copy_seq);
    if (!slot) continue;  // its ACK came while it waited
    in.voq = voq;
    in.slot = *slot;
    in.copy_seq = copy_seq;
    in.next_segment = 0;
    in.sending = in.resending = true;
    return true;
  }
  return false;
}

bool Leaf::resend_still_due(int k) {
  const CrossbarInput& in = inputs_[k];
  return ingress_[k].in_flight_slot(in.voq, in.copy_seq).has_value();
}

void Leaf::resend_ack(int k, const FabricPacket& duplicate) {
  if (duplicate.index + 1 != duplicate.count) return;  // one ACK per retransmitted copy
  const uint32_t forwarded = egress_[k].forwarded(duplicate.src, duplicate.vl);
  if (duplicate.copy_seq < forwarded)
    send_control(ControlKind::ack, port(k), duplicate.src, duplicate.vl, forwarded, 1);
}

bool Leaf::awaiting_acks() const {
  for (const LeafIngress& in : ingress_)
    for (size_t v = 0; v < in.voq_count(); ++v)
      if (!in.voq(static_cast<uint32_t>(v)).in_flight.empty()) return true;
  return false;
}

}  // namespace fabric
