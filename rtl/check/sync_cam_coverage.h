#pragma once
// What the sync CAM stimulus reached (rtl/check/block_stimulus.h), read from
// the C++ model it drives (the reference of a lockstep): the calls as the
// stimulus makes them, the model's state just before, its changes after.
// The bins are the same whatever block is qualified, since they are the
// model's.
#include <cstdint>
#include <map>
#include <vector>

#include "model/multicast/voq_sync_cam.h"
#include "rtl/check/coverage.h"

namespace fabric::stimulus {

class SyncCamCoverage {
 public:
  enum Bin : size_t {
    full,                         // a new VOQ found every entry taken
    eviction,                     // ... and took the least recently used one
    lru_tie_2,                    // ... of two entries last used in one cycle
    lru_tie_3_or_more,            // ... of three or more
    evicted_while_suspended,      // the evicted VOQ was suspended (resumed, why evicted)
    two_notices,                  // one forward: the evicted VOQ's resumption and its own suspension
    suspend,                      // a VOQ more than Shi ahead
    resume_caught_up,             // a suspended VOQ below Slow
    release,                      // a count down to 0 frees the entry
    release_while_suspended,      // ... of a suspended VOQ (resumed, why released)
    count_down_without_entry,     // a count down for a VOQ evicted since (or reset)
    timeout_one,                  // a tick resumes one VOQ
    timeout_several,              // a tick resumes two or more
    timeouts_in_index_order,      // ... suspended in the order of their entries
    timeouts_out_of_index_order,  // ... suspended in another order
    tick_late,                    // a tick after a VOQ's timeout cycle (not at it)
    stall,                        // no copy started for a timeout, with a VOQ suspended
    same_cycle_commands,          // several commands in one cycle
    reset_with_entries,           // reset mid-traffic, entries taken
    reset_while_suspended,        // ... with a VOQ suspended
    count_at_max,                 // a forward brought a VOQ's count to 2^32 - 1 (the counter's top)
    deadline_at_top,              // a suspended VOQ's deadline within 2^20 of 2^64 - 1 (no timeout, now near 2^63)
    kBins
  };
  // The commands' input fields, watched bit by bit (toggle coverage).
  enum Field : size_t { voq_field, packets_field, now_field, kFields };
  // The bins, empty, with those a CAM of `entries` cannot reach marked.
  static Coverage bins(uint32_t entries);

  SyncCamCoverage(const VoqSyncCam& reference, const SyncCam::Params& params, Coverage& coverage);

  // Before each call: the model's state the call will act on.
  void before_forward(uint32_t voq, uint32_t packets, Cycle now);
  void before_count_down(const uint32_t* voqs, size_t count, uint32_t packets, Cycle now);
  void before_tick(Cycle now);
  void before_reset();
  // After a forward, count down or tick: the changes it made.
  void after_call(const std::vector<SyncCam::Change>& changes, bool forward);
  // The stimulus started no copy for `cycles`; some VOQ was suspended when it stopped.
  void idle(Cycle cycles, bool suspended_when_it_stopped);

 private:
  void command_at(Cycle now);

  const VoqSyncCam& reference_;
  SyncCam::Params params_;
  Coverage& coverage_;
  std::map<uint32_t, Cycle> suspended_at_;  // from the changes
  Cycle last_command_ = ~Cycle{0};
  uint32_t forwarded_ = 0;  // the VOQ of the last forward
};

}  // namespace fabric::stimulus
