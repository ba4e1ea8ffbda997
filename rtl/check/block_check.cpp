#include "rtl/check/block_check.h"

#include <ostream>

#include "model/multicast/lockstep_packet_cache.h"
#include "model/multicast/lockstep_sync_cam.h"
#include "model/multicast/multicast_cache.h"
#include "model/multicast/rtl_blocks.h"
#include "model/multicast/voq_sync_cam.h"
#include "rtl/check/block_stimulus.h"

namespace fabric::rtl {

namespace {

std::string seed_range(const CheckOptions& o) {
  return std::to_string(o.first_seed) + "-" + std::to_string(o.first_seed + o.seeds - 1);
}

// The result line's end: the coverage, and the verdict on it.
bool report_coverage(const stimulus::Coverage& coverage, std::ostream& out) {
  out << "; coverage: " << coverage.summary() << "\n";
  const std::vector<std::string> empty = coverage.empty_bins();
  const std::vector<std::string> untoggled = coverage.untoggled_bits();
  if (!empty.empty()) {
    out << "  FAILED: coverage bins left empty:";
    for (const std::string& bin : empty) out << " " << bin;
    out << " (the stimulus never drove the block there: more --seeds or --cycles)\n";
  }
  if (!untoggled.empty()) {
    out << "  FAILED: input bits that never took a value:";
    for (const std::string& bit : untoggled) out << " " << bit;
    out << " (a block could ignore them: more --seeds or --cycles)\n";
  }
  return empty.empty() && untoggled.empty();
}

// Runs `body` and turns what a wrong block throws into a failed line.
template <class Body>
bool guarded(const std::string& what, std::ostream& out, Body body) {
  try {
    return body();
  } catch (const LockstepMismatch& e) {
    out << what << ": " << e.what() << "\n";
  } catch (const std::logic_error& e) {  // a response the contract does not allow (an error flag)
    out << what << ": a block answered outside the contract: " << e.what() << "\n";
  } catch (const std::runtime_error& e) {  // a block that hangs
    out << what << ": " << e.what() << "\n";
  }
  return false;
}

}  // namespace

bool check_sync_cam(const SyncCamUnderTest& block, const CheckOptions& o, std::ostream& out) {
  const std::string what = "sync CAM (" + block.source + "), " + std::to_string(block.entries) + " entries";
  return guarded(what, out, [&] {
    stimulus::Coverage coverage = stimulus::SyncCamCoverage::bins(block.entries);
    uint64_t calls = 0;
    for (uint32_t seed = o.first_seed; seed < o.first_seed + o.seeds; ++seed) {
      for (bool timeouts : {false, true}) {
        stimulus::SyncCamStimulus stimulus(seed, block.entries, timeouts);
        const std::string name =
            what + ", seed " + std::to_string(seed) + (timeouts ? ", with timeouts" : ", no timeout");
        auto model = std::make_unique<VoqSyncCam>(stimulus.params());
        stimulus::SyncCamCoverage observer(*model, stimulus.params(), coverage);
        LockstepSyncCam cam(std::move(model), block.make(stimulus.params()), LockstepCheck(name, "model", "rtl"));
        const stimulus::SyncCamStimulus::Result r = stimulus.run(cam, o.cycles, &observer);
        if (r.deadlock) {
          out << name << ": every VOQ with work suspended at cycle " << *r.deadlock << "\n";
          return false;
        }
        calls += r.calls;
      }
    }
    out << what << ": seeds " << seed_range(o) << ", with and without timeouts, " << calls
        << " calls in lockstep: no mismatch";
    return report_coverage(coverage, out);
  });
}

bool check_packet_cache(const PacketCacheUnderTest& block, const CheckOptions& o, std::ostream& out) {
  const std::string what = "packet cache (" + block.source + "), " + std::to_string(block.entries) + " entries";
  return guarded(what, out, [&] {
    stimulus::Coverage coverage = stimulus::PacketCacheCoverage::bins(block.entries, block.mirrors);
    uint64_t calls = 0;
    for (uint32_t seed = o.first_seed; seed < o.first_seed + o.seeds; ++seed) {
      stimulus::PacketCacheStimulus stimulus(seed, block.entries, block.mirrors, o.cache_ports);
      const std::string name = what + ", seed " + std::to_string(seed);
      auto model = std::make_unique<MulticastCache>(stimulus.params(), o.cache_ports);
      stimulus::PacketCacheCoverage observer(*model, coverage);
      LockstepPacketCache cache(std::move(model), block.make(stimulus.params(), o.cache_ports),
                                LockstepCheck(name, "model", "rtl"));
      calls += stimulus.run(cache, o.cycles, &observer).calls;
    }
    out << what << ": seeds " << seed_range(o) << ", " << calls << " calls in lockstep: no mismatch";
    return report_coverage(coverage, out);
  });
}

bool check_blocks(const CheckOptions& options, std::ostream& out) {
  bool passed = true;
  for (const std::string& fault : {options.sync ? sync_cam_fault() : "", options.cache ? packet_cache_fault() : ""}) {
    if (fault.empty()) continue;
    out << fault << "\n";
    passed = false;
  }
  if (!passed) return false;
  if (options.sync) {
    for (uint32_t entries : sync_cam_sizes()) {
      const SyncCamUnderTest block{sync_cam_source(), entries,
                                   [](const SyncCam::Params& p) { return make_sync_cam(p, "check", {}); }};
      passed = check_sync_cam(block, options, out) && passed;
    }
  }
  if (options.cache) {
    for (uint32_t entries : packet_cache_sizes()) {
      const PacketCacheUnderTest block{
          packet_cache_source(), entries, packet_cache_mirrors(),
          [](const PacketCache::Params& p, int ports) { return make_packet_cache(p, ports, "check", {}); }};
      passed = check_packet_cache(block, options, out) && passed;
    }
  }
  return passed;
}

}  // namespace fabric::rtl
