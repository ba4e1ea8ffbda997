#pragma once
// Which implementation of a multicast block a run uses (leaf.sync.impl,
// leaf.cache.impl): the C++ model, the verilated RTL block, or both in
// lockstep (the model's answers used, every call compared).
#include <memory>
#include <string>

#include "model/multicast/packet_cache.h"
#include "model/multicast/rtl_blocks.h"
#include "model/multicast/sync_cam.h"

namespace fabric {

enum class BlockImpl { model, rtl, lockstep };

// "model", "rtl", "lockstep": the keys' choices.
BlockImpl block_impl_from(const std::string& name);
const char* to_string(BlockImpl impl);

// name: the block in reports ("leaf3 port 2 sync CAM").
std::unique_ptr<SyncCam> make_sync_cam(BlockImpl impl, const SyncCam::Params& params, const std::string& name,
                                       const rtl::TraceWindow& trace);
std::unique_ptr<PacketCache> make_packet_cache(BlockImpl impl, const PacketCache::Params& params, int ports,
                                               const std::string& name, const rtl::TraceWindow& trace);

}  // namespace fabric
