#pragma once
// The implementations of the multicast blocks a unit test runs one body
// against: the C++ model always, the verilated RTL when the build has it
// (including the small sizes the tests use, verilated for them).
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
