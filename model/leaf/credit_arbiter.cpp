#include "model/leaf/credit_arbiter.h"

#include <stdexcept>

namespace fabric {

CreditArbiter::CreditArbiter(uint32_t capacity_units, uint32_t quantum_units)
    : capacity_(capacity_units), quantum_(quantum_units), free_(capacity_units) {
  if (quantum_units == 0) throw std::invalid_argument("credit arbiter: quantum must be positive");
}

CreditArbiter::Requester& CreditArbiter::find(uint32_t id) {
  auto [it, inserted] = index_.try_emplace(id, static_cast<uint32_t>(requesters_.size()));
  if (inserted) {
    requesters_.emplace_back();
    requesters_.back().id = id;
  }
  return requesters_[it->second];
}

void CreditArbiter::request(uint32_t requester, uint32_t units, uint32_t frames) {
  if (units > capacity_) throw std::logic_error("credit arbiter: request larger than the egress pool");
  Requester& r = find(requester);
  r.requests.push_back({units, frames});
  pending_units_ += units;
  if (!r.active) {
    r.active = true;
    active_.push_back(index_[requester]);
  }
}

void CreditArbiter::set_weight(uint32_t requester, uint32_t weight) { find(requester).weight = weight ? weight : 1; }

void CreditArbiter::release(uint32_t units) {
  if (units > capacity_ - free_) throw std::logic_error("credit arbiter: released more units than granted");
  free_ += units;
}

void CreditArbiter::arbitrate(std::vector<Grant>& out) {
  while (!active_.empty()) {
    Requester& r = requesters_[active_.front()];
    if (!r.turn_started) {
      r.deficit += uint64_t{quantum_} * r.weight;
      r.turn_started = true;
    }
    const Request head = r.requests.front();
    if (head.units > r.deficit) {  // turn over: the deficit carries to the next round
      r.turn_started = false;
      active_.push_back(active_.front());
      active_.pop_front();
      continue;
    }
    if (head.units > free_) return;  // the turn waits for egress space
    r.requests.pop_front();
    r.deficit -= head.units;
    free_ -= head.units;
    pending_units_ -= head.units;
    out.push_back({r.id, head.units, head.frames});
    if (r.requests.empty()) {
      r.deficit = 0;
      r.turn_started = false;
      r.active = false;
      active_.pop_front();
    }
  }
}

}  // namespace fabric
