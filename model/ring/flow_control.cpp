#include "model/ring/flow_control.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fabric::ring {

AdaptiveLimit::AdaptiveLimit(int buffers, int members) : buffers_(buffers) {
  if (buffers < 1 || members < 2) throw std::invalid_argument("adaptive limit: at least one buffer and two members");
  fair_ = std::max(1, buffers / (members - 1));
  q_ = fair_;
}

void AdaptiveLimit::observe(int waiting, int other_senders, int occupancy) {
  if (waiting <= q_) return;
  const int half = std::max(1, buffers_ / 2);
  if (other_senders == 0) {
    q_ = std::min(waiting, buffers_);
  } else if (other_senders >= 2) {
    if (q_ > fair_) --q_;
  } else if (occupancy > half) {
    if (q_ > half) --q_;
  } else {
    q_ = std::min(waiting, half);
  }
}

Picos Backoff::delay(int retry) const {
  const int n = std::clamp(retry, 0, 10);
  return backoff_wait(d0_, d_, n);
}

Picos backoff_wait(Picos d0, double d, int retries) {
  // Saturates instead of overflowing: a wait past kLongestBackoff never ends in a run.
  const double wait = static_cast<double>(d0) * std::exp(d * retries) + 0.5;
  return wait >= static_cast<double>(kLongestBackoff) ? kLongestBackoff : static_cast<Picos>(wait);
}

}  // namespace fabric::ring
