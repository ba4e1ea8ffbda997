#include "rtl/check/block_check.h"

#include <ostream>

#include "model/multicast/lockstep_packet_cache.h"
#include "model/multicast/lockstep_sync_cam.h"
#include "model/multicast/multicast_cache.h"
#include "model/multicast/rtl_blocks.h"
#include "model/multicast/voq_sync_cam.h"
#include "traffic/block_stimulus.h"

namespace fabric::rtl {

namespace {

bool check_sync_cams(const CheckOptions& o, std::ostream& out) {
  for (uint32_t entries : sync_cam_sizes()) {
    uint64_t calls = 0;
    for (uint32_t seed = o.first_seed; seed < o.first_seed + o.seeds; ++seed) {
      for (bool timeouts : {false, true}) {
        stimulus::SyncCamStimulus stimulus(seed, entries, timeouts);
        const std::string name = "sync CAM of " + std::to_string(entries) + " entries, seed " + std::to_string(seed) +
                                 (timeouts ? ", with timeouts" : ", no timeout");
        LockstepSyncCam cam(std::make_unique<VoqSyncCam>(stimulus.params()),
                            make_sync_cam(stimulus.params(), "check", {}), LockstepCheck(name, "model", "rtl"));
        const stimulus::SyncCamStimulus::Result r = stimulus.run(cam, o.cycles);
        if (r.deadlock) {
          out << name << ": every VOQ with work suspended at cycle " << *r.deadlock << "\n";
          return false;
        }
        calls += r.calls;
      }
    }
    out << "sync CAM (" << sync_cam_source() << "), " << entries << " entries: seeds " << o.first_seed << "-"
        << o.first_seed + o.seeds - 1 << ", with and without timeouts, " << calls
        << " calls in lockstep: no mismatch\n";
  }
  return true;
}

bool check_packet_caches(const CheckOptions& o, std::ostream& out) {
  for (uint32_t entries : packet_cache_sizes()) {
    uint64_t calls = 0, hits = 0, evictions = 0;
    for (uint32_t seed = o.first_seed; seed < o.first_seed + o.seeds; ++seed) {
      stimulus::PacketCacheStimulus stimulus(seed, entries, o.cache_ports);
      PacketCache::Params params = stimulus.params();
      params.mirrors = packet_cache_mirrors();  // the build's MIRRORS (FABRICSIM_RTL_CACHE_MIRRORS)
      const std::string name = "packet cache of " + std::to_string(entries) + " entries, seed " + std::to_string(seed);
      LockstepPacketCache cache(std::make_unique<MulticastCache>(params, o.cache_ports),
                                make_packet_cache(params, o.cache_ports, "check", {}), LockstepCheck(name, "model", "rtl"));
      const stimulus::PacketCacheStimulus::Result r = stimulus.run(cache, o.cycles);
      calls += r.calls;
      hits += r.hits;
      evictions += r.evictions;
    }
    out << "packet cache (" << packet_cache_source() << "), " << entries << " entries: seeds " << o.first_seed << "-"
        << o.first_seed + o.seeds - 1 << ", " << calls << " calls in lockstep (" << hits << " hits, " << evictions
        << " premature evictions): no mismatch\n";
  }
  return true;
}

}  // namespace

bool check_blocks(const CheckOptions& options, std::ostream& out) {
  try {
    if (options.sync && !check_sync_cams(options, out)) return false;
    if (options.cache && !check_packet_caches(options, out)) return false;
  } catch (const LockstepMismatch& e) {
    out << e.what() << "\n";
    return false;
  } catch (const std::logic_error& e) {  // a response the contract does not allow (an error flag)
    out << "a block answered outside the contract: " << e.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace fabric::rtl
