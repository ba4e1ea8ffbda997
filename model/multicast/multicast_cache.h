#pragma once
// The multicast packet cache of one leaf, cycle accurate, as plain C++
// (mechanism 2). C entries of one packet, mirrored in M SRAMs so that M
// copies can stream out in parallel; one write port shared by the ports;
// per-port tags.
//
// An entry's life: live while copies will still read it (the port says at
// the write how many copies are to come; each header and each copy the port
// drops counts one down; its tag is in the port's table), dead from the
// moment no header will read it again (the tag is gone, so the port's
// buffer unit may hold a new packet), reclaimable once its write and reads
// have completed, then free. While fewer than `background_free_min` entries
// are free the controller reclaims one reclaimable dead entry per cycle; it
// never takes a live one. A write that finds no free entry takes a dead one,
// else evicts the least recently used live entry and tells its port.
//
// Per-cycle interface (the seam for an RTL block: see model/multicast/README.md).
// Calls carry the current cycle, which never decreases. In one cycle:
//   lookup(port, unit)                    tag look-up: hit now, filling (hit
//                                         from a later cycle) or miss;
//   pass_through(port, unit, ...)         a packet starts on the port's own
//                                         interface (first copy or a miss);
//                                         with copies still to come the cache
//                                         writes it on the way when the write
//                                         port is free (at most one write per
//                                         cycle, each busy for the packet's
//                                         cycles);
//   issue(port, unit, ...)                a header with the cache address: a
//                                         free mirror replicates the packet;
//   forget_copy(port, unit)               a copy the port dropped: one reader
//                                         fewer;
//   end_cycle()                           closes the cycle: background
//                                         reclaim of at most one dead entry;
//   take_evictions()                      the notices to owning ports of live
//                                         entries evicted by a write.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/multicast/cycle.h"

namespace fabric {

class MulticastCache {
 public:
  struct Params {
    uint32_t entries = 128;           // C
    uint32_t mirrors = 8;             // copy streams in parallel
    uint32_t header_lag_cycles = 3;   // the first hit header follows the payload by this much
    uint32_t background_free_min = 10;
  };
  enum class State { miss, hit, filling };
  struct Lookup {
    State state = State::miss;
    Cycle ready_at = 0;  // filling: the first cycle a header may be issued
  };
  struct Eviction {
    int port;
    uint32_t unit;
    uint32_t copies_left;  // copies that must now go through the payload interface
  };
  struct PortStats {
    uint64_t hits = 0;                 // copies replicated from the cache
    uint64_t misses = 0;               // copies after the first sent as payload again
    uint64_t writes = 0;
    uint64_t premature_evictions = 0;  // its live entries evicted by a write into a full cache
    uint64_t background_reclaims = 0;  // its dead entries freed by the controller's background reclaim
  };

  MulticastCache(const Params& params, int ports);

  Lookup lookup(int port, uint32_t unit, Cycle now) const;
  // The packet `unit` of `port` starts on the port's own interface for
  // `cycles`. first_copy: no copy of this packet has left yet (else a miss).
  // Returns true when the cache stores it for `copies_to_come` more copies.
  bool pass_through(int port, uint32_t unit, uint32_t cycles, uint32_t copies_to_come, bool first_copy, Cycle now);
  // A copy of a cached packet (lookup said hit): a free mirror streams it for
  // `cycles`. Returns the mirror, or -1 when every mirror is busy.
  int issue(int port, uint32_t unit, uint32_t cycles, Cycle now);
  // One copy of the packet will never be sent (its copy was dropped).
  void forget_copy(int port, uint32_t unit);
  void end_cycle(Cycle now);
  std::vector<Eviction> take_evictions();

  // The first cycle at or after `now` with a mirror free.
  Cycle mirror_free_at(Cycle now) const;
  // True while end_cycle() has dead entries to reclaim (now, or once their
  // reads complete): the controller has work every cycle.
  bool background_work() const;
  uint32_t live_entries() const { return live_count_; }  // packets copies will still read
  uint32_t dead_entries() const { return dead_count_; }  // waiting to be reclaimed or reused
  uint32_t free_entries() const { return params_.entries - live_count_ - dead_count_; }
  const Params& params() const { return params_; }
  const PortStats& stats(int port) const { return stats_[port]; }

 private:
  struct Entry {
    bool valid = false;          // live or dead (not free)
    int port = 0;
    uint32_t unit = 0;
    uint32_t copies_left = 0;    // copies still to read it; 0: dead
    Cycle ready_at = 0;          // first cycle a header may read it
    Cycle written_at = 0;        // the write completes: a live entry is evictable from then on
    Cycle accesses_done_at = 0;  // its write and every read issued so far complete: a dead one is reclaimable
    Cycle last_use = 0;
  };
  enum class Candidates { live, dead };
  int allocate(Cycle now);
  int least_recently_used(Cycle now, Candidates among) const;
  void die(int address);
  void evict(int address);
  void reclaim(int address);
  void free_entry(int address);
  static uint64_t key(int port, uint32_t unit) { return (uint64_t(uint32_t(port)) << 32) | unit; }

  Params params_;
  std::vector<Entry> entries_;
  std::vector<int> free_list_;
  uint32_t live_count_ = 0;
  uint32_t dead_count_ = 0;
  std::vector<Cycle> mirror_busy_until_;
  Cycle write_busy_until_ = 0;
  Cycle last_write_cycle_ = ~Cycle{0};
  std::unordered_map<uint64_t, int> tags_;  // (port, unit) -> address: the ports' tag tables
  std::vector<PortStats> stats_;
  std::vector<Eviction> evictions_;
};

}  // namespace fabric
