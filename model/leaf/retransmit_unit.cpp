#include "model/leaf/retransmit_unit.h"

#include "model/leaf/crossbar.h"
#include "model/leaf/ingress_unit.h"

namespace fabric {

RetransmitUnit::RetransmitUnit(const LeafLayout& layout, const LeafParams& params, EventQueue& events,
                               const Wiring& wiring)
    : layout_(layout), wiring_(wiring), retransmissions_(layout.ports, 0) {
  if (!params.retransmit) return;
  timers_ = std::make_unique<RetransmitTimers>(params.retransmit_timeout);
  wakeup_ = std::make_unique<Wakeup>(events, [this] { step(); });
}

bool RetransmitUnit::in_flight(int k, uint32_t voq, uint32_t copy_seq) const {
  return wiring_.ingress.port(k).in_flight_slot(voq, copy_seq).has_value();
}

void RetransmitUnit::step() {
  const Picos now = now_ps();
  timers_->expire(now, [&](int k, uint32_t voq, uint32_t copy_seq) {
    LeafIngress& ingress = wiring_.ingress.port(k);
    const std::optional<uint32_t> slot = ingress.in_flight_slot(voq, copy_seq);
    if (!slot) return false;  // acknowledged in time
    // The target forwards a VOQ's copies in order: a later copy's ACK waits
    // for the oldest one's. Only the oldest is sent again; the others wait
    // one more timeout.
    if (copy_seq != LeafIngress::oldest_in_flight(ingress.voq(voq))) return true;
    ++retransmissions_[k];
    if (observer_) observer_->on_retransmission(k, ingress.frame(*slot).flow, ingress.voq(voq).target, now);
    wiring_.crossbar.resend(k, voq, copy_seq);
    return true;
  });
  if (!timers_->empty()) wakeup_->at(timers_->next_due());
}

}  // namespace fabric
