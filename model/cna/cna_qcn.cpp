// CNA: QCN reaction points. A CNM for one of this CNA's flows takes effect
// after the reaction time; the flow then gets a rate limiter whose queue
// takes its new frames and is served no faster than the limiter's current
// rate. Byte-counter and timer cycles raise the rate again; at line rate the
// limiter is released and the flow's frames go to its priority queue.
// Every rate change is an event 'rate_change' (entity port<N>, the flow,
// value = the current rate in Gb/s).
#include "model/cna/cna.h"
#include "model/core/sim_time.h"
#include "model/qcn/limiter_pacing.h"

namespace fabric {

void Cna::on_cnm(const ControlMessage& cnm, Picos now) {
  pending_cnms_.push_back({cnm.flow, cnm.fb, now + params_.reaction_time});
  tx.kick();  // an idle CNA asks again at the reaction time (next_qcn_wake)
}

void Cna::apply_due_cnms(Picos now) {
  while (!pending_cnms_.empty() && pending_cnms_.front().at <= now) {
    const PendingCnm c = pending_cnms_.front();
    pending_cnms_.pop_front();
    for (size_t i = 0; i < sources_.size(); ++i) {
      if (sources_[i]->flow() != c.flow) continue;
      if (!limiters_[i]) {
        limiters_[i] =
            std::make_unique<Limiter>(Limiter{ReactionPoint(params_.rp, c.at), {}, now, params_.rp.line_gbps});
        ++limited_;
      }
      limiters_[i]->rp.on_cnm(c.fb, c.at);
      report_rate(i, *limiters_[i], now);
    }
  }
}

void Cna::advance_limiter_timers(Picos now) {
  for (size_t i = 0; i < limiters_.size(); ++i) {
    Limiter* l = limiters_[i].get();
    if (!l || now < l->rp.next_timer_cycle()) continue;
    l->rp.on_time(now);
    report_rate(i, *l, now);
  }
}

void Cna::after_send(int source, uint32_t bytes, Picos now) {
  if (source < 0) return;
  Limiter& l = *limiters_[source];
  // The frame and its 20 B of preamble and gap at the limiter's rate set
  // when the next one may leave, from when this one could have left.
  l.eligible_at = limiter_next_eligible(l.eligible_at, now, bytes, l.rp.current_gbps());
  l.rp.on_sent(bytes);
  report_rate(static_cast<size_t>(source), l, now);
}

void Cna::report_rate(size_t source, Limiter& l, Picos now) {
  if (l.rp.current_gbps() != l.reported_gbps) {
    l.reported_gbps = l.rp.current_gbps();
    if (observer_) observer_->on_rate_change(sources_[source]->flow(), l.reported_gbps, now);
  }
  if (!l.rp.released() || !l.queue.empty()) return;
  limiters_[source].reset();  // back at line rate with nothing queued: released
  --limited_;
}

size_t Cna::held_by_rate_limiters() const {
  size_t n = 0;
  for (const auto& l : limiters_)
    if (l) n += l->queue.size();
  return n;
}

Picos Cna::next_qcn_wake() const {
  Picos wake = kNever;
  if (!pending_cnms_.empty()) wake = pending_cnms_.front().at;
  for (size_t i = 0; i < limiters_.size(); ++i) {
    const Limiter* l = limiters_[i].get();
    if (!l) continue;
    // A paused priority waits for GO, which kicks the port: no wake of its own.
    if (!l->queue.empty() && !paused_[sources_[i]->priority()]) wake = std::min(wake, l->eligible_at);
    wake = std::min(wake, l->rp.next_timer_cycle());
  }
  return wake;
}

}  // namespace fabric
