#pragma once
// Two implementations of a sync CAM in lockstep: every call goes to both,
// the reference's answers are used, and every return value, change and
// state output is compared at every call (LockstepCheck: the first
// difference throws LockstepMismatch).
#include <memory>
#include <string>

#include "model/multicast/lockstep_check.h"
#include "model/multicast/sync_cam.h"

namespace fabric {

class LockstepSyncCam final : public SyncCam {
 public:
  LockstepSyncCam(std::unique_ptr<SyncCam> reference, std::unique_ptr<SyncCam> candidate, LockstepCheck check);

  bool suspended(uint32_t voq) const override;
  void on_copy_forwarded(uint32_t voq, uint32_t packets, bool last_copy, const uint32_t* sent_before,
                         size_t sent_before_count, Cycle now) override;
  void tick(Cycle now) override;
  Cycle next_timeout() const override { return reference_->next_timeout(); }
  std::vector<Change> take_changes() override;
  void reset(Cycle now) override;

  uint32_t ahead(uint32_t voq) const override;
  size_t used_entries() const override { return reference_->used_entries(); }
  size_t suspended_count() const override { return reference_->suspended_count(); }
  uint64_t evictions() const override { return reference_->evictions(); }
  RtlActivity rtl_activity() const override { return candidate_->rtl_activity(); }
  void finish() override { candidate_->finish(); }

 private:
  // After a call that may change state: the changes and every state output.
  template <class Describe>
  void compare_state(Describe call);

  std::unique_ptr<SyncCam> reference_;
  std::unique_ptr<SyncCam> candidate_;
  LockstepCheck check_;
  std::vector<Change> changes_;
  Cycle now_ = 0;
};

}  // namespace fabric
