#include "model/qcn/random_culprits.h"

#include <stdexcept>

namespace fabric {

void RandomCulprits::on_store(uint32_t slot, FlowId flow, uint8_t priority, uint32_t units) {
  if (slot >= units_of_slot_.size()) {
    units_of_slot_.resize(slot + 1);
    flow_of_slot_.resize(slot + 1);
  }
  units_of_slot_[slot].clear();
  flow_of_slot_[slot] = flow;
  if (!array_.take(units, priority, slot, units_of_slot_[slot]))
    throw std::logic_error("ingress culprits: more units stored than the buffer has");
}

FlowId RandomCulprits::pick(uint8_t priority, FlowId arriving, std::mt19937_64& rng) const {
  if (const std::optional<uint32_t> slot = array_.sample(priority, rng, max_probes_)) return flow_of_slot_[*slot];
  return arriving;
}

}  // namespace fabric
