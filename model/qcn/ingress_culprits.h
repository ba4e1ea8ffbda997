#pragma once
// What an ingress congestion point needs to name a culprit, kept as frames
// are stored and freed at a port, for the policy leaf.qcn.culprit names
// (mechanism 6, culprit_selector.h), each a file of its own behind this
// interface: `occupancy` (occupancy_culprits.h: per-flow occupancy per
// priority) and `random` (random_culprits.h: a CulpritArray over the port's
// buffer units). `arrival` needs nothing kept: the port has no tracker and
// the CNM names the arriving frame's flow.
#include <cstdint>
#include <memory>
#include <random>

#include "model/qcn/culprit_selector.h"

namespace fabric {

class IngressCulprits {
 public:
  virtual ~IngressCulprits() = default;
  virtual void on_store(uint32_t slot, FlowId flow, uint8_t priority, uint32_t units) = 0;
  virtual void on_free(uint32_t slot, FlowId flow, uint8_t priority, uint32_t units) = 0;
  // The flow a CNM for `priority` names, the arriving frame's flow being
  // `arriving` (named when the policy finds none).
  virtual FlowId pick(uint8_t priority, FlowId arriving, std::mt19937_64& rng) const = 0;
};

// The tracker of `policy` (occupancy or random) over a port's `buffer_units`.
std::unique_ptr<IngressCulprits> make_ingress_culprits(CulpritPolicy policy, uint32_t buffer_units,
                                                       uint32_t max_probes);

}  // namespace fabric
