// A build without Verilator: the model runs, the RTL implementations are
// refused where they are chosen (leaf.sync.impl, leaf.cache.impl: exit 2).
#include <stdexcept>

#include "model/multicast/rtl_blocks.h"

namespace fabric::rtl {

bool available() { return false; }
std::string unavailable_reason() {
  return "this build has no RTL blocks: Verilator was not found when it was configured "
         "(apt-get install verilator, then scripts/build.sh)";
}
std::vector<uint32_t> sync_cam_sizes() { return {}; }
std::vector<uint32_t> packet_cache_sizes() { return {}; }
uint32_t packet_cache_mirrors() { return 0; }
std::string sync_cam_source() { return ""; }
std::string packet_cache_source() { return ""; }
std::string sync_cam_fault() { return unavailable_reason(); }
std::string packet_cache_fault() { return unavailable_reason(); }

std::unique_ptr<SyncCam> make_sync_cam(const SyncCam::Params&, const std::string&, const TraceWindow&) {
  throw std::logic_error(unavailable_reason());
}
std::unique_ptr<PacketCache> make_packet_cache(const PacketCache::Params&, int, const std::string&,
                                               const TraceWindow&) {
  throw std::logic_error(unavailable_reason());
}

}  // namespace fabric::rtl
