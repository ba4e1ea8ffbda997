#pragma once
// What the packet cache stimulus reached (rtl/check/block_stimulus.h), read
// from the C++ model it drives (the reference of a lockstep): the calls as
// the stimulus makes them, the model's choices just before. The bins are
// the same whatever block is qualified, since they are the model's.
#include <cstdint>

#include "model/multicast/multicast_cache.h"
#include "rtl/check/coverage.h"

namespace fabric::stimulus {

class PacketCacheCoverage {
 public:
  enum Bin : size_t {
    full,                        // a write found no free entry
    write_takes_dead,            // ... and took the LRU dead entry
    write_evicts_live,           // ... and evicted the LRU live entry (a notice)
    write_finds_no_victim,       // ... and found none (every entry being written or read)
    write_port_busy,             // a write refused: one in progress or one this cycle
    lru_tie_2,                   // a write or the background broke a tie of two entries last used in one cycle
    lru_tie_3_or_more,           // ... of three or more
    background_reclaim,          // end cycle freed a dead entry
    background_evicts_live,      // end cycle evicted an idle live entry
    background_waits_for_reads,  // end cycle had work but every candidate was still being read
    filling,                     // a look-up of a packet still being written (a hit from a later cycle)
    header_at_ready,             // a header issued at the first cycle it may be
    mirrors_busy,                // every mirror streaming
    forget_kills,                // a dropped copy was an entry's last reader
    idle_gap,                    // cycles with no call (reads complete, reclaim catches up)
    reset_with_entries,          // reset mid-traffic with live entries
    kBins
  };
  // The commands' input fields, watched bit by bit (toggle coverage). The
  // port is not: the model numbers a leaf's ports from 0.
  enum Field : size_t { unit_field, cycles_field, copies_field, now_field, kFields };
  // The bins, empty, with those a cache of `entries` and `mirrors` cannot reach marked.
  static Coverage bins(uint32_t entries, uint32_t mirrors);

  PacketCacheCoverage(const MulticastCache& reference, Coverage& coverage);

  void looked_up(uint32_t unit, const PacketCache::Lookup& look, Cycle now);
  void before_pass_through(uint32_t unit, uint32_t cycles, uint32_t copies_to_come, Cycle now);
  void after_pass_through(bool written);
  void before_issue(uint32_t unit, uint32_t cycles, Cycle ready_at, Cycle now);
  void mirror_free_at(Cycle free_at, Cycle now);
  void before_forget();
  void after_forget();
  void before_end_cycle(Cycle now);
  void gap(Cycle cycles);
  void before_reset();

 private:
  void tie(uint32_t ties);

  const MulticastCache& reference_;
  Coverage& coverage_;
  bool write_wanted_ = false;
  bool port_free_ = false;
  MulticastCache::Choice choice_;
  uint32_t live_before_ = 0;
};

}  // namespace fabric::stimulus
