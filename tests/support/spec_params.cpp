#include "tests/support/spec_params.h"

#include <algorithm>

#include "model/leaf/lossless_limits.h"
#include "model/multicast/mcbc_table.h"
#include "platforms/app/parameters.h"
#include "platforms/fabric/fabric_keys.h"
#include "platforms/fabric/fabric_sizing.h"
#include "traffic/frame_size.h"

namespace fabric::testing {

namespace {

struct SpecFabric {
  FabricKeys keys;  // outside any ParamScope: the declared defaults
  TopologyParams topology;
  SpecFabric() : topology(read_topology_params(keys.topology, static_cast<int>(keys.spine.ports.value()))) {
    derive_fabric_keys(keys, topology);
  }
};

}  // namespace

LeafParams spec_leaf_params() {
  SpecFabric f;
  LeafParams p = read_leaf_params(f.keys.leaf, run_keys().stall_timeout);
  apply_lossless_limits(f.keys.leaf, p, cna_pause_round_trip(f.topology, p), traffic::kMaxFrameBytes,
                        static_cast<uint32_t>(kMaxLocalFanout));
  return p;
}

LinkRetryParams spec_link_retry_params() {
  SpecFabric f;
  const LeafParams leaf = read_leaf_params(f.keys.leaf, run_keys().stall_timeout);
  return read_link_retry_params(f.keys.link.retry, std::max(leaf.packet_bytes, leaf.control_frame_bytes),
                                leaf.control_bytes);
}

}  // namespace fabric::testing
