#pragma once
// The RTL side of the multicast seams: what a build with Verilator provides
// (rtl/cosim/rtl_blocks.cpp, the blocks verilated from rtl/ or from the
// user's sources) and a build without it answers (rtl/cosim/no_rtl.cpp).
// No SystemC and no Verilator in this header.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/multicast/packet_cache.h"
#include "model/multicast/sync_cam.h"

namespace fabric::rtl {

// Where and when a block's signals are written (Verilator's FST tracing).
struct TraceWindow {
  std::string path;  // empty: not traced
  Cycle from = 0;
  Cycle until = ~Cycle{0};
  uint64_t cycle_ps = 1;  // the file's time is the model's, in ps
};

// Whether this build has the RTL blocks; if not, why, and how to get them.
bool available();
std::string unavailable_reason();

// The size parameters the blocks were verilated with: one variant per
// ENTRIES (cmake: FABRICSIM_RTL_SYNC_ENTRIES, FABRICSIM_RTL_CACHE_ENTRIES).
std::vector<uint32_t> sync_cam_sizes();
std::vector<uint32_t> packet_cache_sizes();
uint32_t packet_cache_mirrors();
// Which sources were verilated (ours, or the user's: FABRICSIM_RTL_*).
std::string sync_cam_source();
std::string packet_cache_source();
// What makes this build's block unusable, or "": every variant reports on
// p_query_latency the QUERY_LATENCY configure read from its parameters.
std::string sync_cam_fault();
std::string packet_cache_fault();

// The variant of params.entries (one of the sizes above).
std::unique_ptr<SyncCam> make_sync_cam(const SyncCam::Params& params, const std::string& name,
                                       const TraceWindow& trace);
std::unique_ptr<PacketCache> make_packet_cache(const PacketCache::Params& params, int ports, const std::string& name,
                                               const TraceWindow& trace);

}  // namespace fabric::rtl
