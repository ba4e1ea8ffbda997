#pragma once
// The multicast packet cache of one leaf (mechanism 2), as the multicast
// engine calls it: the contract every implementation keeps, whether the C++
// model (MulticastCache), a verilated RTL block (rtl/cosim/) or both in
// lockstep (LockstepPacketCache).
//
// Calls carry the current leaf cycle, which never decreases. In one cycle:
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
//                                         entries evicted by a write;
//   reset(now)                            back to the state after power-up
//                                         (every entry free, mirrors and
//                                         write port idle); the per-port
//                                         counters stay. The qualification
//                                         check resets mid-traffic; the fabric
//                                         never does.
// Least recently used: the entry with the oldest last use; of entries last
// used in the same cycle, the lowest address. Free entries form a stack:
// address 0 first, and the entry freed last is taken next. The lowest free
// mirror streams a hit.
#include <cstdint>
#include <string>
#include <vector>

#include "model/multicast/cycle.h"
#include "model/multicast/rtl_activity.h"

namespace fabric {

class PacketCache {
 public:
  struct Params {
    uint32_t entries = 128;          // C
    uint32_t mirrors = 8;            // copy streams in parallel
    uint32_t header_lag_cycles = 3;  // the first hit header follows the payload by this much
    uint32_t background_free_min = 10;
    // While fewer than background_free_min entries are free the controller
    // frees one entry with no outstanding headers per cycle: a dead one
    // first; with this set, else the least recently used live one whose
    // write and reads have completed (a premature eviction its port is told
    // of), as the document's text of Fig. 4(c) has it.
    bool background_evicts_live = true;
  };
  enum class State { miss, hit, filling };
  struct Lookup {
    State state = State::miss;
    Cycle ready_at = 0;  // filling: the first cycle a header may be issued
    bool operator==(const Lookup& o) const {
      return state == o.state && (state == State::miss || ready_at == o.ready_at);
    }
  };
  struct Eviction {
    int port;
    uint32_t unit;
    uint32_t copies_left;  // copies that must now go through the payload interface
    bool operator==(const Eviction& o) const {
      return port == o.port && unit == o.unit && copies_left == o.copies_left;
    }
  };
  struct PortStats {
    uint64_t hits = 0;    // copies replicated from the cache
    uint64_t misses = 0;  // copies after the first sent as payload again
    uint64_t writes = 0;
    uint64_t premature_evictions = 0;  // its live entries evicted: by a write into a full cache, or in the background
    uint64_t background_reclaims = 0;  // its dead entries freed by the controller's background reclaim
    bool operator==(const PortStats& o) const {
      return hits == o.hits && misses == o.misses && writes == o.writes &&
             premature_evictions == o.premature_evictions && background_reclaims == o.background_reclaims;
    }
  };

  virtual ~PacketCache() = default;

  virtual Lookup lookup(int port, uint32_t unit, Cycle now) const = 0;
  // The packet `unit` of `port` starts on the port's own interface for
  // `cycles`. first_copy: no copy of this packet has left yet (else a miss).
  // Returns true when the cache stores it for `copies_to_come` more copies.
  virtual bool pass_through(int port, uint32_t unit, uint32_t cycles, uint32_t copies_to_come, bool first_copy,
                            Cycle now) = 0;
  // A copy of a cached packet (lookup said hit): a free mirror streams it for
  // `cycles`. Returns the mirror, or -1 when every mirror is busy.
  virtual int issue(int port, uint32_t unit, uint32_t cycles, Cycle now) = 0;
  // One copy of the packet will never be sent (its copy was dropped).
  virtual void forget_copy(int port, uint32_t unit) = 0;
  virtual void end_cycle(Cycle now) = 0;
  virtual std::vector<Eviction> take_evictions() = 0;
  virtual void reset(Cycle now) = 0;

  // The first cycle at or after `now` with a mirror free.
  virtual Cycle mirror_free_at(Cycle now) const = 0;
  // True while end_cycle() has dead entries to reclaim (now, or once their
  // reads complete): the controller has work every cycle.
  virtual bool background_work() const = 0;
  virtual uint32_t live_entries() const = 0;  // packets copies will still read
  virtual uint32_t dead_entries() const = 0;  // waiting to be reclaimed or reused
  uint32_t free_entries() const { return params().entries - live_entries() - dead_entries(); }
  virtual const Params& params() const = 0;
  virtual const PortStats& stats(int port) const = 0;
  virtual int ports() const = 0;
  // An RTL implementation's work so far (zero for the C++ model).
  virtual RtlActivity rtl_activity() const { return {}; }
  // The run is over: an RTL implementation closes its waveform file.
  virtual void finish() {}
};

std::string describe(const PacketCache::Lookup& lookup);
std::string describe(const PacketCache::Eviction& eviction);
std::string describe(const PacketCache::PortStats& stats);

}  // namespace fabric
