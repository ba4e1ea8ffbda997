#pragma once
// Seeded adversarial stimulus for the multicast blocks, driven through their
// interfaces (no SystemC): the orders in which a port's VOQs may start the
// copies of multicast frames (the sync CAM's deadlock test), and the calls a
// leaf's multicast engine makes on the packet cache. The unit tests and
// fabricsim-rtl-check (which qualifies a user's RTL block against the C++
// model in lockstep) use the same stimulus.
#include <cstdint>
#include <optional>
#include <random>

#include "model/multicast/packet_cache.h"
#include "model/multicast/sync_cam.h"

namespace fabric::stimulus {

// A port whose VOQs hold multicast frames in arrival order (FIFO), frames
// arriving at random with random fanout sets, and an adversary that starts
// the head copy of a random VOQ that is not suspended.
class SyncCamStimulus {
 public:
  struct Result {
    uint64_t copies_started = 0;
    uint64_t calls = 0;
    // A cycle where copies waited and every VOQ holding one was suspended.
    std::optional<Cycle> deadlock;
  };
  // Shi, Slow and the number of VOQs come from the seed; with_timeouts: a
  // timeout of 20-400 cycles (ticked every cycle), else none.
  SyncCamStimulus(uint32_t seed, uint32_t entries, bool with_timeouts);
  const SyncCam::Params& params() const { return params_; }
  // Drives a CAM built with params() for `cycles`; stops at a deadlock.
  Result run(SyncCam& cam, Cycle cycles);

 private:
  std::mt19937 rng_;
  uint32_t voqs_;
  bool with_timeouts_;
  SyncCam::Params params_;
};

// Ports that start multicast packets at random (random copy counts and
// packet lengths, buffer units reused as soon as the cache holds none of
// their packet), and at random send a copy (a header on a hit, the payload
// on a miss), drop one, or leave a gap of idle cycles; the cache's cycle
// closes every cycle.
class PacketCacheStimulus {
 public:
  struct Result {
    uint64_t calls = 0;
    uint64_t hits = 0;
    uint64_t writes = 0;
    uint64_t evictions = 0;
  };
  PacketCacheStimulus(uint32_t seed, uint32_t entries, int ports);
  const PacketCache::Params& params() const { return params_; }
  int ports() const { return ports_; }
  Result run(PacketCache& cache, Cycle cycles);

 private:
  std::mt19937 rng_;
  int ports_;
  uint32_t units_;  // buffer units per port
  PacketCache::Params params_;
};

}  // namespace fabric::stimulus
