#pragma once
// Culprit selection `random` at an ingress congestion point: the flow of a
// random occupied unit of the port's buffer at the priority, found by
// probing a CulpritArray (one word per unit; no flow counters).
#include <cstdint>
#include <vector>

#include "model/qcn/ingress_culprits.h"

namespace fabric {

class RandomCulprits final : public IngressCulprits {
 public:
  RandomCulprits(uint32_t buffer_units, uint32_t max_probes) : array_(buffer_units), max_probes_(max_probes) {}
  void on_store(uint32_t slot, FlowId flow, uint8_t priority, uint32_t units) override;
  void on_free(uint32_t slot, FlowId, uint8_t, uint32_t) override { array_.give_back(units_of_slot_[slot]); }
  FlowId pick(uint8_t priority, FlowId arriving, std::mt19937_64& rng) const override;

 private:
  CulpritArray array_;
  uint32_t max_probes_;
  std::vector<std::vector<uint32_t>> units_of_slot_;
  std::vector<FlowId> flow_of_slot_;
};

}  // namespace fabric
