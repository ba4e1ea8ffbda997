#include "model/multicast/lockstep_sync_cam.h"

#include <string>

namespace fabric {

LockstepSyncCam::LockstepSyncCam(std::unique_ptr<SyncCam> reference, std::unique_ptr<SyncCam> candidate,
                                 LockstepCheck check)
    : reference_(std::move(reference)), candidate_(std::move(candidate)), check_(std::move(check)) {}

bool LockstepSyncCam::suspended(uint32_t voq) const {
  const bool ref = reference_->suspended(voq);
  check_.same("suspended", ref, candidate_->suspended(voq), now_,
              [&] { return "suspended(voq " + std::to_string(voq) + ")"; });
  return ref;
}

uint32_t LockstepSyncCam::ahead(uint32_t voq) const {
  const uint32_t ref = reference_->ahead(voq);
  check_.same("ahead", ref, candidate_->ahead(voq), now_, [&] { return "ahead(voq " + std::to_string(voq) + ")"; });
  return ref;
}

void LockstepSyncCam::on_copy_forwarded(uint32_t voq, uint32_t packets, bool last_copy, const uint32_t* sent_before,
                                        size_t sent_before_count, Cycle now) {
  now_ = now;
  reference_->on_copy_forwarded(voq, packets, last_copy, sent_before, sent_before_count, now);
  candidate_->on_copy_forwarded(voq, packets, last_copy, sent_before, sent_before_count, now);
  compare_state([&] {
    std::string call = "on_copy_forwarded(voq " + std::to_string(voq) + ", packets " + std::to_string(packets) +
                       (last_copy ? ", last copy, sent before [" : ", not the last copy, sent before [");
    for (size_t k = 0; k < sent_before_count; ++k) call += (k ? ", " : "") + std::to_string(sent_before[k]);
    return call + "])";
  });
}

void LockstepSyncCam::tick(Cycle now) {
  now_ = now;
  reference_->tick(now);
  candidate_->tick(now);
  compare_state([] { return std::string("tick()"); });
}

void LockstepSyncCam::reset(Cycle now) {
  now_ = now;
  reference_->reset(now);
  candidate_->reset(now);
  changes_.clear();
  compare_state([] { return std::string("reset()"); });
}

template <class Describe>
void LockstepSyncCam::compare_state(Describe call) {
  std::vector<Change> ref = reference_->take_changes();
  check_.same("changes", ref, candidate_->take_changes(), now_, call);
  check_.same("used_entries", reference_->used_entries(), candidate_->used_entries(), now_, call);
  check_.same("suspended_count", reference_->suspended_count(), candidate_->suspended_count(), now_, call);
  check_.same("evictions", reference_->evictions(), candidate_->evictions(), now_, call);
  check_.same("next_timeout", reference_->next_timeout(), candidate_->next_timeout(), now_, call);
  changes_.insert(changes_.end(), ref.begin(), ref.end());
}

std::vector<SyncCam::Change> LockstepSyncCam::take_changes() {
  std::vector<Change> out;
  out.swap(changes_);
  return out;
}

}  // namespace fabric
