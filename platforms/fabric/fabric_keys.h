#pragma once
// Every key of platform `fabric` but the traffic's, each declared once
// (config/param.h): constructed inside a ParamScope they declare
// themselves (--list-params) or read a run's values.
#include "model/cna/cna_params.h"
#include "model/leaf/leaf_params.h"
#include "model/link/link_params.h"
#include "model/spine/spine_params.h"
#include "platforms/fabric/topology_params.h"

namespace fabric {

struct FabricKeys {
  TopologyKeys topology;
  SpineKeys spine;
  LeafKeys leaf;
  CnaKeys cna;
  LinkKeys link;
};

}  // namespace fabric
