#include "tests/support/block_implementations.h"

#include <stdexcept>
#include <string>

#include "model/multicast/multicast_cache.h"
#include "model/multicast/rtl_blocks.h"
#include "model/multicast/voq_sync_cam.h"
#ifdef FABRICSIM_HAVE_RTL
#include "Vtest_packet_cache_128.h"
#include "Vtest_packet_cache_16.h"
#include "Vtest_packet_cache_4.h"
#include "Vtest_sync_cam_2.h"
#include "Vtest_sync_cam_24.h"
#include "Vtest_sync_cam_3.h"
#include "rtl/cosim/rtl_packet_cache.h"
#include "rtl/cosim/rtl_sync_cam.h"
#endif

namespace fabric::testing {

std::vector<std::string> block_implementations() {
  if (rtl::available()) return {"model", "rtl"};
  return {"model"};
}

std::unique_ptr<SyncCam> make_sync_cam_for_test(const std::string& impl, const SyncCam::Params& params) {
  if (impl == "model") return std::make_unique<VoqSyncCam>(params);
#ifdef FABRICSIM_HAVE_RTL
  if (params.entries == 2) return std::make_unique<rtl::RtlSyncCam<Vtest_sync_cam_2>>(params, "test");
  if (params.entries == 3) return std::make_unique<rtl::RtlSyncCam<Vtest_sync_cam_3>>(params, "test");
  if (params.entries == 24) return std::make_unique<rtl::RtlSyncCam<Vtest_sync_cam_24>>(params, "test");
  throw std::logic_error("no test variant of our sync CAM with " + std::to_string(params.entries) +
                         " entries: add it in cmake/rtl_test_variants.cmake");
#else
  throw std::logic_error("no RTL in this build");
#endif
}

std::unique_ptr<PacketCache> make_packet_cache_for_test(const std::string& impl, const PacketCache::Params& params,
                                                        int ports) {
  if (impl == "model") return std::make_unique<MulticastCache>(params, ports);
#ifdef FABRICSIM_HAVE_RTL
  if (params.entries == 4) return std::make_unique<rtl::RtlPacketCache<Vtest_packet_cache_4>>(params, ports, "test");
  if (params.entries == 16) return std::make_unique<rtl::RtlPacketCache<Vtest_packet_cache_16>>(params, ports, "test");
  if (params.entries == 128)
    return std::make_unique<rtl::RtlPacketCache<Vtest_packet_cache_128>>(params, ports, "test");
  throw std::logic_error("no test variant of our packet cache with " + std::to_string(params.entries) +
                         " entries: add it in cmake/rtl_test_variants.cmake");
#else
  throw std::logic_error("no RTL in this build");
#endif
}

}  // namespace fabric::testing
