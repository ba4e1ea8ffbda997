#include "model/qcn/ingress_culprits.h"

#include <stdexcept>

#include "model/qcn/occupancy_culprits.h"
#include "model/qcn/random_culprits.h"

namespace fabric {

std::unique_ptr<IngressCulprits> make_ingress_culprits(CulpritPolicy policy, uint32_t buffer_units,
                                                       uint32_t max_probes) {
  switch (policy) {
    case CulpritPolicy::occupancy:
      return std::make_unique<OccupancyCulprits>();
    case CulpritPolicy::random:
      return std::make_unique<RandomCulprits>(buffer_units, max_probes);
    case CulpritPolicy::arrival:
      break;
  }
  throw std::logic_error("ingress culprits: arrival sampling keeps no tracker");
}

}  // namespace fabric
