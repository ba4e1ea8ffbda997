#pragma once
// A port's VOQ sync CAM (mechanism 3), as the multicast engine calls it: the
// contract every implementation keeps, whether the C++ model (VoqSyncCam),
// a verilated RTL block (rtl/cosim/) or both in lockstep (LockstepSyncCam).
//
// Calls carry the current leaf cycle, which never decreases:
//   suspended(voq)                     may the VOQ start its next copy?
//   on_copy_forwarded(voq, packets,    a VOQ starts forwarding a copy (or
//       last_copy, sent_before)        drops it from its head: the same);
//                                      for a frame's last copy, the VOQs
//                                      that sent the frame before it;
//   tick()                             timeouts of this cycle;
//   take_changes()                     suspensions and resumptions, in order;
//   reset(now)                         back to the state after power-up: no
//                                      entry, no count, no notice (the
//                                      qualification check resets mid-traffic;
//                                      the fabric never does).
// Least recently used: the entry with the oldest last use; of entries last
// used in the same cycle, the lowest index. A new entry takes the lowest
// free index.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/multicast/cycle.h"
#include "model/multicast/rtl_activity.h"

namespace fabric {

class SyncCam {
 public:
  struct Params {
    uint32_t entries = 24;
    uint32_t shi = 18;            // suspend above this many packets ahead
    uint32_t slow = 12;           // resume below
    Cycle timeout_cycles = 1362;  // 3 us at 454 MHz
  };
  enum class Why : uint8_t { ahead, caught_up, timeout, evicted, released };
  struct Change {
    uint32_t voq;
    bool suspended;
    Why why;
    Cycle at;
    bool operator==(const Change& o) const {
      return voq == o.voq && suspended == o.suspended && why == o.why && at == o.at;
    }
  };

  virtual ~SyncCam() = default;

  virtual bool suspended(uint32_t voq) const = 0;
  virtual void on_copy_forwarded(uint32_t voq, uint32_t packets, bool last_copy, const uint32_t* sent_before,
                                 size_t sent_before_count, Cycle now) = 0;
  virtual void tick(Cycle now) = 0;
  // The earliest cycle a suspended VOQ times out, or ~0 when none is suspended.
  virtual Cycle next_timeout() const = 0;
  virtual std::vector<Change> take_changes() = 0;
  virtual void reset(Cycle now) = 0;

  virtual uint32_t ahead(uint32_t voq) const = 0;  // pkts_ahead_cnt, 0 without an entry
  virtual size_t used_entries() const = 0;
  virtual size_t suspended_count() const = 0;
  virtual uint64_t evictions() const = 0;
  // An RTL implementation's work so far (zero for the C++ model).
  virtual RtlActivity rtl_activity() const { return {}; }
  // The run is over: an RTL implementation closes its waveform file.
  virtual void finish() {}
};

const char* to_string(SyncCam::Why why);
std::string describe(const SyncCam::Change& change);

}  // namespace fabric
