#pragma once
// The fabric's derived keys and its checks of physical constraints
// (docs/model.md, "Derived keys" and "Checks before the run"). What a
// designer sizes from the cables and the rates, the keys left `auto` take
// from them: the link retry timeout and buffer, the spine's and the leaf's
// credit windows, the end-to-end timeouts. A value a user gives that
// breaks one of these constraints is a warning naming the keys and the
// numbers (an error with --strict), recorded with the run.
#include <string>
#include <vector>

#include "model/core/ids.h"
#include "model/leaf/pause_headroom.h"
#include "model/link/link_sizing.h"
#include "platforms/fabric/fabric_keys.h"

namespace fabric {

// The leaf-spine link as its retry and credits see it.
LinkTiming fabric_link_timing(const FabricKeys& keys, const TopologyParams& topology);
// "40 m leaf-spine link"
std::string cable_text(const FabricKeys& keys);
// Notes a check, holding or not, in the run's configuration.
void note_check(const config::Config& config, std::string name, std::vector<std::string> keys, bool holds,
                std::string detail);

// Fills every auto key of `keys` from the topology (read first) and the
// keys it depends on.
void derive_fabric_keys(FabricKeys& keys, const TopologyParams& topology);
// spine.buffer_packets alone, for one spine read from its instance view:
// the window that covers its own credit round trip (its traversal).
void derive_spine_window(FabricKeys& keys, const TopologyParams& topology);

// The PAUSE round trip on a CNA-leaf link, for the lossless thresholds
// (apply_lossless_limits).
PauseRoundTrip cna_pause_round_trip(const TopologyParams& topology, const LeafParams& leaf);

// Notes each check, holding or not, in the run's configuration (the keys'
// Config): `sim_time` is the run's length.
void check_fabric_keys(const FabricKeys& keys, const TopologyParams& topology, Picos sim_time,
                       const config::Config& config);

}  // namespace fabric
