#pragma once
// The implementations of the multicast blocks a unit test runs one body
// against: the C++ model always, the verilated RTL when the build has
// Verilator: our blocks (rtl/), verilated for the tests at the sizes they
// use, whatever block and sizes the build configured.
#include <memory>
#include <string>
#include <vector>

#include "model/multicast/packet_cache.h"
#include "model/multicast/sync_cam.h"

namespace fabric::testing {

std::vector<std::string> block_implementations();  // "model", and "rtl" when built
std::unique_ptr<SyncCam> make_sync_cam_for_test(const std::string& impl, const SyncCam::Params& params);
std::unique_ptr<PacketCache> make_packet_cache_for_test(const std::string& impl, const PacketCache::Params& params,
                                                        int ports);

}  // namespace fabric::testing
