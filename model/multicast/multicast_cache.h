#pragma once
// The multicast packet cache of one leaf, cycle accurate, as plain C++
// (mechanism 2). C entries of one packet, mirrored in M SRAMs so that M
// copies can stream out in parallel; one write port shared by the ports;
// per-port tags; LRU eviction with a notice to the owning port; background
// eviction while fewer than `background_free_min` entries are free.
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
//   end_cycle()                           closes the cycle: background
//                                         eviction of at most one entry;
//   take_evictions()                      the notices to owning ports of
//                                         entries evicted with copies to come.
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
    uint64_t premature_evictions = 0;  // its entries evicted with copies still to come
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
  // True while end_cycle() would evict: the controller has work every cycle.
  bool background_work() const;
  uint32_t occupancy() const { return params_.entries - free_count_; }
  uint32_t free_entries() const { return free_count_; }
  const Params& params() const { return params_; }
  const PortStats& stats(int port) const { return stats_[port]; }

 private:
  struct Entry {
    bool valid = false;
    int port = 0;
    uint32_t unit = 0;
    uint32_t copies_left = 0;
    uint32_t copies_served = 0;
    Cycle ready_at = 0;     // first cycle a header may read it
    Cycle written_at = 0;   // the write completes: evictable from then on
    Cycle last_use = 0;
  };
  int allocate(Cycle now);
  int least_recently_used(Cycle now, bool served_only) const;
  void evict(int address);
  void release(int address);
  static uint64_t key(int port, uint32_t unit) { return (uint64_t(uint32_t(port)) << 32) | unit; }

  Params params_;
  std::vector<Entry> entries_;
  std::vector<int> free_list_;
  uint32_t free_count_;
  uint32_t served_entries_ = 0;  // valid entries that have replicated a copy: background candidates
  std::vector<Cycle> mirror_busy_until_;
  Cycle write_busy_until_ = 0;
  Cycle last_write_cycle_ = ~Cycle{0};
  std::unordered_map<uint64_t, int> tags_;  // (port, unit) -> address: the ports' tag tables
  std::vector<PortStats> stats_;
  std::vector<Eviction> evictions_;
};

}  // namespace fabric
