#include "model/ring/ticket_pacer.h"

#include <algorithm>

namespace fabric::ring {

TicketPacer::TicketPacer(const PacerParams& params, Picos permit_interval)
    : params_(params), backoff_(params.backoff_d0, params.backoff_d), offered_(permit_interval) {}

void TicketPacer::enqueue(const Priority& p) {
  delayed_.insert(std::upper_bound(delayed_.begin(), delayed_.end(), p), p);
}

void TicketPacer::offer(const Priority& p, int attempt, Picos now, bool own_buffers_full) {
  const bool retry = attempt > 1;
  if (retry && params_.backoff) {
    backing_off_.push_back({now + backoff_.delay(attempt - 1), p, params_.delayed_retry});
    return;
  }
  if (params_.delayed_retry && (retry || own_buffers_full || (!delayed_.empty() && delayed_.front() < p))) {
    enqueue(p);
    return;
  }
  backing_off_.push_back({now, p, false});  // goes at once
}

void TicketPacer::take_released(Picos now, std::vector<Priority>& out) {
  out.clear();
  // Back-off over: into the delayed queue, or out.
  for (size_t i = 0; i < backing_off_.size();) {
    if (backing_off_[i].until > now) {
      ++i;
      continue;
    }
    if (backing_off_[i].then_delayed) {
      enqueue(backing_off_[i].priority);
    } else {
      out.push_back(backing_off_[i].priority);
    }
    backing_off_.erase(backing_off_.begin() + static_cast<long>(i));
  }
  // Permits: one per interval; one is kept while nothing waits.
  if (delayed_.empty()) {
    next_permit_ = std::max(next_permit_, now);
  } else {
    while (!delayed_.empty() && next_permit_ <= now) {
      out.push_back(delayed_.front());
      delayed_.erase(delayed_.begin());
      next_permit_ += permit_interval();
    }
    if (next_permit_ <= now) next_permit_ = now;
  }
}

Picos TicketPacer::next_release() const {
  Picos t = kNever;
  for (const Waiting& w : backing_off_) t = std::min(t, w.until);
  if (!delayed_.empty()) t = std::min(t, next_permit_);
  return t;
}

}  // namespace fabric::ring
