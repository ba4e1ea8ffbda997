#include "model/multicast/block_impl.h"

#include <stdexcept>

#include "model/multicast/lockstep_packet_cache.h"
#include "model/multicast/lockstep_sync_cam.h"
#include "model/multicast/multicast_cache.h"
#include "model/multicast/voq_sync_cam.h"

namespace fabric {

BlockImpl block_impl_from(const std::string& name) {
  if (name == "model") return BlockImpl::model;
  if (name == "rtl") return BlockImpl::rtl;
  if (name == "lockstep") return BlockImpl::lockstep;
  throw std::invalid_argument("block implementation '" + name + "'; allowed: model, rtl, lockstep");
}

const char* to_string(BlockImpl impl) {
  switch (impl) {
    case BlockImpl::model:
      return "model";
    case BlockImpl::rtl:
      return "rtl";
    case BlockImpl::lockstep:
      return "lockstep";
  }
  return "?";
}

std::unique_ptr<SyncCam> make_sync_cam(BlockImpl impl, const SyncCam::Params& params, const std::string& name,
                                       const rtl::TraceWindow& trace) {
  switch (impl) {
    case BlockImpl::model:
      return std::make_unique<VoqSyncCam>(params);
    case BlockImpl::rtl:
      return rtl::make_sync_cam(params, name, trace);
    case BlockImpl::lockstep:
      return std::make_unique<LockstepSyncCam>(std::make_unique<VoqSyncCam>(params),
                                               rtl::make_sync_cam(params, name, trace),
                                               LockstepCheck(name, "model", "rtl"));
  }
  return nullptr;
}

std::unique_ptr<PacketCache> make_packet_cache(BlockImpl impl, const PacketCache::Params& params, int ports,
                                               const std::string& name, const rtl::TraceWindow& trace) {
  switch (impl) {
    case BlockImpl::model:
      return std::make_unique<MulticastCache>(params, ports);
    case BlockImpl::rtl:
      return rtl::make_packet_cache(params, ports, name, trace);
    case BlockImpl::lockstep:
      return std::make_unique<LockstepPacketCache>(std::make_unique<MulticastCache>(params, ports),
                                                   rtl::make_packet_cache(params, ports, name, trace),
                                                   LockstepCheck(name, "model", "rtl"));
  }
  return nullptr;
}

}  // namespace fabric
