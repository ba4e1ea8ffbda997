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
#include <vector>

#include "model/multicast/packet_cache.h"
#include "model/multicast/sync_cam.h"
#include "rtl/check/packet_cache_coverage.h"
#include "rtl/check/sync_cam_coverage.h"

namespace fabric::stimulus {

// The widths of the contracts' ports (rtl/README.md, rtl/contract/): the
// stimulus drives every input up to its largest value, so that a block
// keeping fewer bits of a VOQ id, a cycle, a count or a length fails.
namespace widths {
constexpr uint32_t kMaxVoq = 0xFFFF;          // sync CAM `voq`: 16 bits
constexpr uint32_t kMaxPackets = 0xFFFFFFFF;  // `cmd_packets` and `q_ahead`: 32 bits
constexpr uint32_t kMaxUnit = 0xFFFFFFFF;     // cache `tag_unit`: 32 bits
constexpr uint32_t kMaxCacheCycles = 0xFFFF;  // cache `cmd_cycles`: 16 bits
constexpr uint32_t kMaxCopies = 0xFFFF;       // cache `cmd_copies`: 16 bits
// `now` has 64 bits; it stays below 2^63, so that a suspension's deadline
// (suspended at + a timeout of up to 2^63 - 1) fits in 64 bits.
constexpr uint64_t kNowLimit = uint64_t{1} << 63;
}  // namespace widths

// Where a seed's time starts (seed % 4): at 0; before 2^40 or 2^62, crossing
// it within the run's first `cycles / 2` (the carries into those bits); or
// as close to 2^63 as `cycles` and `headroom` allow (a deadline without
// timeout, now + 2^63 - 1, at the top of the 64-bit range).
Cycle start_cycle(uint32_t seed, uint32_t draw, Cycle cycles, Cycle headroom = 0);

// A port whose VOQs hold multicast frames in arrival order (FIFO), frames
// arriving at random with random fanout sets, and an adversary that starts
// the head copies of up to three random VOQs that are not suspended per
// cycle. The run goes through phases, so that every size reaches every
// situation the qualification's coverage counts (traffic/
// sync_cam_coverage.h): a crowd (twice as many VOQs as entries: the CAM
// fills and evicts), a few VOQs (counts grow, VOQs suspend), a stall (no
// copy starts for longer than the timeout: VOQs time out), late ticks (one
// VOQ's branch is stalled, the others suspend at different cycles, and the
// tick comes a while after their timeouts: several at once, in any order),
// and now and then a reset between phases. Over the contract's whole width:
// the VOQs' ids are 0, 65535 and pairs that differ in one bit (a different
// bit each), time starts where start_cycle says, and one frame in 64 has up
// to as many packets as the counts of its VOQs can still take (2^32 - 1).
class SyncCamStimulus {
 public:
  // A timeout no run reaches: the sync CAM without timeouts.
  static constexpr Cycle kNoTimeout = ~Cycle{0} / 2;
  struct Result {
    uint64_t copies_started = 0;
    uint64_t calls = 0;
    // Without timeouts: a cycle where copies waited and every VOQ holding
    // one was suspended (the FIFO argument says it never comes).
    std::optional<Cycle> deadlock;
  };
  // Shi and Slow come from the seed; with_timeouts: a timeout of 20-400
  // cycles, else kNoTimeout.
  SyncCamStimulus(uint32_t seed, uint32_t entries, bool with_timeouts);
  const SyncCam::Params& params() const { return params_; }
  // The id of each of the port's VOQs.
  const std::vector<uint32_t>& voq_ids() const { return ids_; }
  // Drives a CAM built with params() for `cycles` from start_cycle; stops
  // at a deadlock. `coverage` (optional) observes the reference model the
  // CAM compares with.
  Result run(SyncCam& cam, Cycle cycles, SyncCamCoverage* coverage = nullptr);

 private:
  enum class PhaseKind { crowd, few, stall, late_ticks };
  static constexpr uint32_t kNone = ~uint32_t{0};
  struct Phase {
    PhaseKind kind;
    uint32_t active;   // frames arrive at VOQs 0 .. active - 1
    uint32_t laggard;  // a VOQ that starts no copy (kNone: none)
    Cycle end;
  };
  Phase next_phase(Cycle now);

  std::mt19937 rng_;
  uint32_t seed_;
  uint32_t voqs_;
  std::vector<uint32_t> ids_;  // of VOQ 0 .. voqs_ - 1
  bool with_timeouts_;
  SyncCam::Params params_;
};

// Ports that start multicast packets at random (random copy counts and
// packet lengths, buffer units reused as soon as the cache holds none of
// their packet), and at random send a copy (a header on a hit, the payload
// on a miss), drop one, or leave a gap of idle cycles; the cache's cycle
// closes every cycle; now and then a reset mid-traffic. Phases of busy
// readers (four copies move a cycle) alternate with slow ones (one in four
// cycles), in which live entries pile up and the cache fills. Over the
// contract's whole width: buffer units are ids 0, 2^32 - 1 and pairs that
// differ in one bit, time starts where start_cycle says, one packet in 256
// lasts up to 65,535 cycles (the run then skips ahead to its end, now and
// then) and one in 1024 tells the cache of up to 65,535 copies to come,
// more than the stimulus sends (the rest stay counted until the entry is
// evicted).
class PacketCacheStimulus {
 public:
  struct Result {
    uint64_t calls = 0;
    uint64_t hits = 0;
    uint64_t writes = 0;
    uint64_t evictions = 0;
  };
  PacketCacheStimulus(uint32_t seed, uint32_t entries, uint32_t mirrors, int ports);
  const PacketCache::Params& params() const { return params_; }
  int ports() const { return ports_; }
  // Drives `cycles` cycles of traffic from start_cycle (time skipped to the
  // end of a long packet does not count). `coverage` (optional) observes the
  // reference model the cache compares with.
  Result run(PacketCache& cache, Cycle cycles, PacketCacheCoverage* coverage = nullptr);

 private:
  std::mt19937 rng_;
  uint32_t seed_;
  int ports_;
  uint32_t units_;                  // buffer units per port
  std::vector<uint32_t> unit_ids_;  // of unit 0 .. units_ - 1
  PacketCache::Params params_;
};

}  // namespace fabric::stimulus
