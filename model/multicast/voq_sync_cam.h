#pragma once
// The VOQ synchronization CAM of one port, cycle accurate, as plain C++
// (mechanism 3). It keeps the subflows of multicast flows loosely in step:
// a VOQ that runs more than Shi packets ahead of the slowest copy of the
// frames it sent is suspended until it is back below Slow, for at most the
// timeout, or until its entry is released.
//
// The interface and its calls: sync_cam.h.
// Deadlock freedom: every VOQ is FIFO, so the VOQ holding the oldest
// unfinished frame has no count and is never suspended (tests/unit).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/multicast/sync_cam.h"

namespace fabric {

class VoqSyncCam final : public SyncCam {
 public:
  explicit VoqSyncCam(const Params& params);

  bool suspended(uint32_t voq) const override;
  void on_copy_forwarded(uint32_t voq, uint32_t packets, bool last_copy, const uint32_t* sent_before,
                         size_t sent_before_count, Cycle now) override;
  void tick(Cycle now) override;
  Cycle next_timeout() const override;
  std::vector<Change> take_changes() override;
  void reset(Cycle now) override;

  uint32_t ahead(uint32_t voq) const override;
  size_t used_entries() const override;
  size_t suspended_count() const override;
  uint64_t evictions() const override { return evictions_; }

  // What the qualification check's coverage reads (rtl/check/): the entry
  // of a VOQ (-1 without one), and how many valid entries share the oldest
  // last use (the LRU tie a new VOQ in a full CAM would break).
  int entry_of(uint32_t voq) const { return find(voq); }
  uint32_t lru_ties() const;

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
