// The RTL blocks of this build: the sources CMake verilated under the
// contract's fixed names, one variant per size (Vfabric_sync_cam_<ENTRIES>,
// Vfabric_packet_cache_<ENTRIES>), ours from rtl/ or the user's
// (FABRICSIM_RTL_SYNC_*, FABRICSIM_RTL_CACHE_*). rtl_variants.h is generated
// by cmake/rtl_blocks.cmake.
#include "model/multicast/rtl_blocks.h"

#include <stdexcept>

#include "rtl/cosim/rtl_packet_cache.h"
#include "rtl/cosim/rtl_sync_cam.h"
#include "rtl_variants.h"

namespace fabric::rtl {

namespace {

template <class V>
V& probe() {  // one instance, to read the parameters a variant was built with
  static VerilatedContext context;
  static V block(&context, "probe");
  block.eval();
  return block;
}

// The query latency a variant reports (p_query_latency) against the
// QUERY_LATENCY configure read from the block's parameters: "" when they agree.
template <class V>
std::string query_latency_fault(const char* block, uint32_t entries, uint32_t declared) {
  const uint32_t reported = probe<V>().p_query_latency;
  if (reported == declared) return "";
  return std::string("the RTL ") + block + " of " + std::to_string(entries) + " entries declares QUERY_LATENCY " +
         std::to_string(declared) + " but reports p_query_latency " + std::to_string(reported) +
         " (rtl/README.md, queries)";
}

std::string sizes_text(const std::vector<uint32_t>& sizes) {
  std::string s;
  for (uint32_t n : sizes) s += (s.empty() ? "" : ", ") + std::to_string(n);
  return s;
}

}  // namespace

bool available() { return true; }
std::string unavailable_reason() { return ""; }

std::vector<uint32_t> sync_cam_sizes() {
#define FABRICSIM_SIZE(n) n,
  return {FABRICSIM_RTL_SYNC_VARIANTS(FABRICSIM_SIZE)};
}
std::vector<uint32_t> packet_cache_sizes() { return {FABRICSIM_RTL_CACHE_VARIANTS(FABRICSIM_SIZE)}; }
#undef FABRICSIM_SIZE

uint32_t packet_cache_mirrors() {
#define FABRICSIM_FIRST(n) return probe<Vfabric_packet_cache_##n>().p_mirrors;
  FABRICSIM_RTL_CACHE_VARIANTS(FABRICSIM_FIRST)
#undef FABRICSIM_FIRST
}

std::string sync_cam_source() { return FABRICSIM_RTL_SYNC_SOURCE; }
std::string packet_cache_source() { return FABRICSIM_RTL_CACHE_SOURCE; }

std::string sync_cam_fault() {
  std::string fault;
#define FABRICSIM_CHECK(n) \
  if (fault.empty()) fault = query_latency_fault<Vfabric_sync_cam_##n>("sync CAM", n, FABRICSIM_RTL_SYNC_QUERY_LATENCY);
  FABRICSIM_RTL_SYNC_VARIANTS(FABRICSIM_CHECK)
#undef FABRICSIM_CHECK
  return fault;
}

std::string packet_cache_fault() {
  std::string fault;
#define FABRICSIM_CHECK(n) \
  if (fault.empty())       \
    fault = query_latency_fault<Vfabric_packet_cache_##n>("packet cache", n, FABRICSIM_RTL_CACHE_QUERY_LATENCY);
  FABRICSIM_RTL_CACHE_VARIANTS(FABRICSIM_CHECK)
#undef FABRICSIM_CHECK
  return fault;
}

std::unique_ptr<SyncCam> make_sync_cam(const SyncCam::Params& params, const std::string& name,
                                       const TraceWindow& trace) {
#define FABRICSIM_MAKE(n) \
  if (params.entries == n) return std::make_unique<RtlSyncCam<Vfabric_sync_cam_##n>>(params, name, trace);
  FABRICSIM_RTL_SYNC_VARIANTS(FABRICSIM_MAKE)
#undef FABRICSIM_MAKE
  throw std::invalid_argument("no RTL sync CAM of " + std::to_string(params.entries) + " entries in this build (" +
                              sizes_text(sync_cam_sizes()) + ")");
}

std::unique_ptr<PacketCache> make_packet_cache(const PacketCache::Params& params, int ports, const std::string& name,
                                               const TraceWindow& trace) {
#define FABRICSIM_MAKE(n)  \
  if (params.entries == n) \
    return std::make_unique<RtlPacketCache<Vfabric_packet_cache_##n>>(params, ports, name, trace);
  FABRICSIM_RTL_CACHE_VARIANTS(FABRICSIM_MAKE)
#undef FABRICSIM_MAKE
  throw std::invalid_argument("no RTL packet cache of " + std::to_string(params.entries) + " entries in this build (" +
                              sizes_text(packet_cache_sizes()) + ")");
}

}  // namespace fabric::rtl
