// Cost of the cycle-accurate multicast sub-models, per simulated leaf cycle
// (counter time_per_cycle, in seconds with its SI prefix).
//   BM_MulticastCacheCycle: the cache as one port drives it with an 8-copy
//     stream of 256 B packets: every 8 cycles one packet passes the port's
//     interface and is written, the 7 other cycles a look-up and a hit
//     through a mirror; end_cycle() every cycle; C = 128, or the range arg.
//   BM_VoqSyncCamCycle: the sync CAM with a copy forwarded every cycle over
//     8 VOQs (each frame's 8th copy counts the others down), suspended()
//     checked for all 8 VOQs and tick() every cycle; 24 entries.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>

#include "model/multicast/multicast_cache.h"
#include "model/multicast/voq_sync_cam.h"

namespace {

using fabric::Cycle;

void BM_MulticastCacheCycle(benchmark::State& state) {
  fabric::MulticastCache::Params p;
  p.entries = static_cast<uint32_t>(state.range(0));
  fabric::MulticastCache cache(p, 8);
  Cycle c = 0;
  uint32_t unit = 0;
  for (auto _ : state) {
    const uint32_t phase = static_cast<uint32_t>(c % 8);
    if (phase == 0) {
      ++unit;
      cache.pass_through(0, unit, 8, 7, true, c);
    } else if (c >= 8) {
      const uint32_t previous = unit - 1 + (phase >= 3);  // hits start 3 cycles after the write
      if (cache.lookup(0, previous, c).state == fabric::MulticastCache::State::hit)
        benchmark::DoNotOptimize(cache.issue(0, previous, 8, c));
    }
    cache.end_cycle(c);
    ++c;
  }
  state.counters["time_per_cycle"] =
      benchmark::Counter(static_cast<double>(c), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["hits"] = static_cast<double>(cache.stats(0).hits);
}
BENCHMARK(BM_MulticastCacheCycle)->Arg(16)->Arg(128);

void BM_VoqSyncCamCycle(benchmark::State& state) {
  fabric::VoqSyncCam::Params p;
  fabric::VoqSyncCam cam(p);
  std::array<uint32_t, 8> started{};
  Cycle c = 0;
  uint32_t copy = 0;
  for (auto _ : state) {
    uint32_t suspended = 0;
    for (uint32_t v = 0; v < 8; ++v) suspended += cam.suspended(v);
    benchmark::DoNotOptimize(suspended);
    const uint32_t voq = copy % 8;
    cam.on_copy_forwarded(voq, 6, voq == 7, started.data(), voq, c);
    started[voq] = voq;
    ++copy;
    cam.tick(c);
    benchmark::DoNotOptimize(cam.take_changes());
    ++c;
  }
  state.counters["time_per_cycle"] =
      benchmark::Counter(static_cast<double>(c), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_VoqSyncCamCycle);

}  // namespace
