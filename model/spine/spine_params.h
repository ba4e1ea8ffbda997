#pragma once
#include <systemc>

#include "model/config/config.h"

namespace fabric {

struct SpineParams {
  int ports = 136;
  int buffer_packets = 16;        // per input and per output port
  sc_core::sc_time traversal;     // input to output through the spine
};

void declare_spine_params(config::ParamRegistry& registry);
SpineParams read_spine_params(const config::Config& config);

}  // namespace fabric
