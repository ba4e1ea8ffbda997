#include "model/leaf/credit_arbiter.h"

#include <algorithm>
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

void CreditArbiter::request(uint32_t requester, uint32_t units, uint32_t frames, CopyRange copies) {
  if (units > capacity_) throw std::logic_error("credit arbiter: request larger than the egress pool");
  Requester& r = find(requester);
  r.requests.push_back({units, frames, copies});
  pending_units_ += units;
  if (!r.active) {
    r.active = true;
    active_.push_back(index_[requester]);
  }
}

bool CreditArbiter::withdraw(uint32_t requester, uint32_t copy, uint32_t units) {
  const auto it = index_.find(requester);
  if (it == index_.end()) return false;
  Requester& r = requesters_[it->second];
  for (size_t i = 0; i < r.requests.size(); ++i) {
    Request& q = r.requests[i];
    if (q.frames == 0 || copy < q.copies.first || copy > q.copies.last) continue;
    if (units > q.units) throw std::logic_error("credit arbiter: withdrawing more units than the request holds");
    q.units -= units;
    --q.frames;
    pending_units_ -= units;
    return true;
  }
  return false;
}

uint32_t CreditArbiter::withdraw_newest(uint32_t requester, uint32_t units) {
  const auto it = index_.find(requester);
  if (it == index_.end()) return 0;
  Requester& r = requesters_[it->second];
  uint32_t withdrawn = 0;
  for (size_t i = r.requests.size(); i-- > 0 && withdrawn < units;) {
    Request& q = r.requests[i];
    const uint32_t take = std::min(q.units, units - withdrawn);
    q.units -= take;
    withdrawn += take;
    if (q.units == 0) q.frames = 0;  // passed over without a grant
  }
  pending_units_ -= withdrawn;
  return withdrawn;
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
    if (head.frames == 0) {  // withdrawn whole: no grant
      r.requests.pop_front();
      if (r.requests.empty()) {
        r.deficit = 0;
        r.turn_started = false;
        r.active = false;
        active_.pop_front();
      }
      continue;
    }
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
    out.push_back({r.id, head.units, head.frames, head.copies});
    if (r.requests.empty()) {
      r.deficit = 0;
      r.turn_started = false;
      r.active = false;
      active_.pop_front();
    }
  }
}

}  // namespace fabric
