#include "model/qcn/ingress_culprits.h"

#include <stdexcept>

namespace fabric {

void IngressCulprits::on_store(uint32_t slot, FlowId flow, uint8_t priority, uint32_t units) {
  if (policy_ == CulpritPolicy::occupancy) occupancy_[priority].add(flow, units);
  if (policy_ != CulpritPolicy::random) return;
  if (slot >= units_of_slot_.size()) {
    units_of_slot_.resize(slot + 1);
    flow_of_slot_.resize(slot + 1);
  }
  units_of_slot_[slot].clear();
  flow_of_slot_[slot] = flow;
  if (!array_.take(units, priority, slot, units_of_slot_[slot]))
    throw std::logic_error("ingress culprits: more units stored than the buffer has");
}

void IngressCulprits::on_free(uint32_t slot, FlowId flow, uint8_t priority, uint32_t units) {
  if (policy_ == CulpritPolicy::occupancy) occupancy_[priority].remove(flow, units);
  if (policy_ == CulpritPolicy::random) array_.give_back(units_of_slot_[slot]);
}

FlowId IngressCulprits::pick(uint8_t priority, FlowId arriving, std::mt19937_64& rng) const {
  if (policy_ == CulpritPolicy::occupancy) {
    if (const std::optional<FlowId> f = occupancy_[priority].largest()) return *f;
  } else if (policy_ == CulpritPolicy::random) {
    if (const std::optional<uint32_t> slot = array_.sample(priority, rng, max_probes_)) return flow_of_slot_[*slot];
  }
  return arriving;
}

}  // namespace fabric
