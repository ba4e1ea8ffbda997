#pragma once
// The VOQ synchronization CAM of one port, cycle accurate, as plain C++
// (mechanism 3). It keeps the subflows of multicast flows loosely in step:
// a VOQ that runs more than Shi packets ahead of the slowest copy of the
// frames it sent is suspended until it is back below Slow, for at most the
// timeout, or until its entry is released.
//
// Per-cycle interface (see model/multicast/README.md). Calls carry the
// current cycle, which never decreases:
//   suspended(voq)                     may the VOQ start its next copy?
//   on_copy_forwarded(voq, packets,    a VOQ starts forwarding a copy (or
//       last_copy, sent_before)        drops it from its head: the same);
//                                      for a frame's last copy, the VOQs
//                                      that sent the frame before it;
//   tick()                             timeouts of this cycle;
//   take_changes()                     suspensions and resumptions, in order.
// Deadlock freedom: every VOQ is FIFO, so the VOQ holding the oldest
// unfinished frame has no count and is never suspended (tests/unit).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/multicast/cycle.h"

namespace fabric {

class VoqSyncCam {
 public:
  struct Params {
    uint32_t entries = 24;
    uint32_t shi = 18;        // suspend above this many packets ahead
    uint32_t slow = 12;       // resume below
    Cycle timeout_cycles = 1362;  // 3 us at 454 MHz
  };
  enum class Why : uint8_t { ahead, caught_up, timeout, evicted, released };
  struct Change {
    uint32_t voq;
    bool suspended;
    Why why;
    Cycle at;
  };

  explicit VoqSyncCam(const Params& params);

  bool suspended(uint32_t voq) const;
  void on_copy_forwarded(uint32_t voq, uint32_t packets, bool last_copy, const uint32_t* sent_before,
                         size_t sent_before_count, Cycle now);
  void tick(Cycle now);
  // The earliest cycle a suspended VOQ times out, or ~0 when none is suspended.
  Cycle next_timeout() const;
  std::vector<Change> take_changes();

  uint32_t ahead(uint32_t voq) const;  // pkts_ahead_cnt, 0 without an entry
  size_t used_entries() const;
  size_t suspended_count() const;
  uint64_t evictions() const { return evictions_; }

 private:
  struct Entry {
    bool valid = false;
    bool suspended = false;
    uint32_t voq = 0;
    uint32_t ahead = 0;
    Cycle suspended_at = 0;
    Cycle last_use = 0;
  };
  int find(uint32_t voq) const;
  int allocate(uint32_t voq, Cycle now);
  void resume(Entry& e, Why why, Cycle now);
  void release(Entry& e, Why why, Cycle now);

  Params params_;
  std::vector<Entry> entries_;
  std::vector<Change> changes_;
  size_t suspended_ = 0;
  uint64_t evictions_ = 0;
};

}  // namespace fabric
