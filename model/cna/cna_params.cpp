#include "model/cna/cna_params.h"

namespace fabric {

using config::ParamType;

void declare_cna_params(config::ParamRegistry& r) {
  r.declare({"cna.scheduling", ParamType::choice, "strict", "", "service of the 8 transmit queues: strict priority (7 first) or round robin", -1, 1, {"strict", "round_robin"}});
  r.declare({"cna.queue_frames", ParamType::integer, "64", "frames", "transmit queue per priority; while full, its flows create no frames (the server is held back)", 1, 1000000});
}

CnaParams read_cna_params(const config::Config& c) {
  CnaParams p;
  p.strict_priority = c.get_choice("cna.scheduling") == "strict";
  p.queue_frames = static_cast<int>(c.get_int("cna.queue_frames"));
  return p;
}

}  // namespace fabric
