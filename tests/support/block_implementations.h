#pragma once
// The implementations of the multicast blocks a unit test runs one body
// against: the C++ model always, and our RTL (rtl/*.sv) when the build has
// Verilator, verilated at the sizes the tests use whatever block the build
// was configured with (cmake/rtl_test_variants.cmake).
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
