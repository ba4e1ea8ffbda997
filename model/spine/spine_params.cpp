#include "model/spine/spine_params.h"

#include "model/core/sim_time.h"

namespace fabric {

SpineParams read_spine_params(const SpineKeys& keys) {
  SpineParams p;
  p.ports = static_cast<int>(keys.ports.value());
  p.buffer_packets = static_cast<int>(keys.buffer_packets.value());
  p.traversal = from_ps(keys.traversal);
  return p;
}

}  // namespace fabric
