#pragma once
// What an ingress congestion point needs to name a culprit, kept as frames
// are stored and freed at a port: per-flow occupancy per priority
// (deterministic occupancy sampling) or a CulpritArray over the port's
// buffer units (random occupancy sampling). Arrival sampling needs nothing.
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "model/qcn/culprit_selector.h"

namespace fabric {

class IngressCulprits {
 public:
  IngressCulprits(CulpritPolicy policy, uint32_t buffer_units, uint32_t max_probes)
      : policy_(policy), array_(policy == CulpritPolicy::random ? buffer_units : 0), max_probes_(max_probes) {}

  void on_store(uint32_t slot, FlowId flow, uint8_t priority, uint32_t units);
  void on_free(uint32_t slot, FlowId flow, uint8_t priority, uint32_t units);
  // The flow a CNM for `priority` names, the arriving frame's flow being `arriving`.
  FlowId pick(uint8_t priority, FlowId arriving, std::mt19937_64& rng) const;

 private:
  CulpritPolicy policy_;
  std::array<OccupancyByFlow, 8> occupancy_;
  CulpritArray array_;
  uint32_t max_probes_;
  std::vector<std::vector<uint32_t>> units_of_slot_;
  std::vector<FlowId> flow_of_slot_;
};

}  // namespace fabric
