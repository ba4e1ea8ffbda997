#pragma once
// Culprit selection `occupancy` at an ingress congestion point: the flow
// holding the most units of the port's buffer at the priority (per-flow
// counters, deterministic occupancy sampling).
#include <array>
#include <cstdint>

#include "model/qcn/ingress_culprits.h"

namespace fabric {

class OccupancyCulprits final : public IngressCulprits {
 public:
  void on_store(uint32_t, FlowId flow, uint8_t priority, uint32_t units) override {
    occupancy_[priority].add(flow, units);
  }
  void on_free(uint32_t, FlowId flow, uint8_t priority, uint32_t units) override {
    occupancy_[priority].remove(flow, units);
  }
  FlowId pick(uint8_t priority, FlowId arriving, std::mt19937_64&) const override {
    const std::optional<FlowId> f = occupancy_[priority].largest();
    return f ? *f : arriving;
  }

 private:
  std::array<OccupancyByFlow, 8> occupancy_;
};

}  // namespace fabric
