#include "model/qcn/culprit_selector.h"

#include <stdexcept>

#include "model/core/random.h"

namespace fabric {

CulpritArray::CulpritArray(uint32_t units) : words_(units) {
  for (uint32_t u = units; u > 0; --u) free_.push_back(u - 1);
}

bool CulpritArray::take(uint32_t n, uint8_t priority, uint32_t frame, std::vector<uint32_t>& out) {
  if (free_.size() < n) return false;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t u = free_.back();
    free_.pop_back();
    words_[u] = Word{true, priority, frame};
    out.push_back(u);
  }
  used_ += n;
  return true;
}

void CulpritArray::give_back(const std::vector<uint32_t>& units) {
  for (uint32_t u : units) {
    if (!words_[u].valid) throw std::logic_error("culprit array: freeing a unit that is not held");
    words_[u].valid = false;
    free_.push_back(u);
  }
  used_ -= static_cast<uint32_t>(units.size());
}

std::optional<uint32_t> CulpritArray::sample(uint8_t priority, std::mt19937_64& rng, uint32_t max_probes,
                                             uint32_t* probes_used) const {
  const uint32_t n = static_cast<uint32_t>(words_.size());
  if (n == 0 || used_ == 0) return std::nullopt;
  uint32_t u = 0;
  for (uint32_t probe = 1; probe <= max_probes; ++probe) {
    u = static_cast<uint32_t>(uniform_below(rng, n));
    if (words_[u].valid && words_[u].priority == priority) {
      if (probes_used) *probes_used = probe;
      return words_[u].frame;
    }
  }
  if (probes_used) *probes_used = max_probes;
  for (uint32_t i = 1; i <= n; ++i) {  // sequential scan from the last probe
    const Word& w = words_[(u + i) % n];
    if (w.valid && w.priority == priority) return w.frame;
  }
  return std::nullopt;
}

void OccupancyByFlow::remove(FlowId flow, uint32_t units) {
  auto it = units_.find(raw(flow));
  if (it == units_.end() || it->second < units) throw std::logic_error("occupancy by flow: removing more than held");
  it->second -= units;
  if (it->second == 0) units_.erase(it);
}

std::optional<FlowId> OccupancyByFlow::largest() const {
  std::optional<FlowId> best;
  uint64_t most = 0;
  for (const auto& [flow, units] : units_) {
    if (units > most || (units == most && best && flow < raw(*best))) {
      most = units;
      best = FlowId(flow);
    }
  }
  return best;
}

CulpritPolicy parse_culprit_policy(const std::string& name) {
  if (name == "arrival") return CulpritPolicy::arrival;
  if (name == "occupancy") return CulpritPolicy::occupancy;
  if (name == "random") return CulpritPolicy::random;
  throw std::invalid_argument("culprit policy '" + name + "'");
}

}  // namespace fabric
