#include "model/spine/spine_params.h"

#include "model/core/sim_time.h"

namespace fabric {

using config::ParamType;

void declare_spine_params(config::ParamRegistry& r) {
  r.declare({"spine.ports", ParamType::integer, "136", "ports", "ports of a spine (one per leaf; more leaves than ports is an error)", 1, 4096});
  r.declare({"spine.buffer_packets", ParamType::integer, "16", "packets", "input buffer and output buffer per spine port", 1, 1024});
  r.declare({"spine.traversal_latency", ParamType::duration, "44ns", "ps", "pipeline latency through a spine (with 50 ns leaves and 200 ns cables: ~1100 ns remote request-grant round trip)", 0, 1e9});
}

SpineParams read_spine_params(const config::Config& c) {
  SpineParams p;
  p.ports = static_cast<int>(c.get_int("spine.ports"));
  p.buffer_packets = static_cast<int>(c.get_int("spine.buffer_packets"));
  p.traversal = from_ps(c.get_duration("spine.traversal_latency"));
  return p;
}

}  // namespace fabric
