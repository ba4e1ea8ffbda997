#pragma once
#include <string>

#include "model/config/config.h"

namespace fabric {

struct CnaParams {
  bool strict_priority = true;  // else round robin over priorities
  int queue_frames = 64;        // per priority; a full queue holds back its flows
};

void declare_cna_params(config::ParamRegistry& registry);
CnaParams read_cna_params(const config::Config& config);

}  // namespace fabric
