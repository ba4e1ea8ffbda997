#pragma once
// Qualifies RTL blocks (ours, or a user's brought with FABRICSIM_RTL_*)
// against the C++ model: each size, driven in lockstep on seeded
// adversarial stimulus (rtl/check/block_stimulus.h), with and without sync
// timeouts, while functional coverage counts the situations reached
// (rtl/check/sync_cam_coverage.h, rtl/check/packet_cache_coverage.h). A size
// fails at its first mismatch (the block, the size, the seed, the cycle, the
// call with its inputs and both outputs) and also when a coverage bin it
// can reach stayed empty (the bins named): a check that never drove the
// block into a situation proves nothing about it.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "model/multicast/packet_cache.h"
#include "model/multicast/sync_cam.h"

namespace fabric::rtl {

struct CheckOptions {
  bool sync = true;
  bool cache = true;
  uint32_t first_seed = 1;
  uint32_t seeds = 20;
  uint64_t cycles = 20000;  // per seed
  int cache_ports = 6;      // a leaf's five user ports and its surrogate
};

// The block under qualification at one size: its name in reports and how
// to make one for a run's parameters.
struct SyncCamUnderTest {
  std::string source;
  uint32_t entries;
  std::function<std::unique_ptr<SyncCam>(const SyncCam::Params&)> make;
};
struct PacketCacheUnderTest {
  std::string source;
  uint32_t entries;
  uint32_t mirrors;
  std::function<std::unique_ptr<PacketCache>(const PacketCache::Params&, int ports)> make;
};

// One block at one size; reports one result line to `out`; true when it
// matched the model throughout and left no reachable bin empty.
bool check_sync_cam(const SyncCamUnderTest& block, const CheckOptions& options, std::ostream& out);
bool check_packet_cache(const PacketCacheUnderTest& block, const CheckOptions& options, std::ostream& out);

// This build's blocks, every size verilated (options.sync, options.cache).
bool check_blocks(const CheckOptions& options, std::ostream& out);

}  // namespace fabric::rtl
