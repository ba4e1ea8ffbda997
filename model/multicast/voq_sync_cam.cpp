#include "model/multicast/voq_sync_cam.h"

#include <stdexcept>

namespace fabric {

VoqSyncCam::VoqSyncCam(const Params& params) : params_(params), entries_(params.entries) {
  if (params_.entries < 1) throw std::invalid_argument("VOQ sync CAM: at least one entry");
  if (params_.slow > params_.shi) throw std::invalid_argument("VOQ sync CAM: Slow above Shi");
}

int VoqSyncCam::find(uint32_t voq) const {
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].valid && entries_[i].voq == voq) return static_cast<int>(i);
  return -1;
}

bool VoqSyncCam::suspended(uint32_t voq) const {
  if (suspended_ == 0) return false;
  const int i = find(voq);
  return i >= 0 && entries_[i].suspended;
}

int VoqSyncCam::allocate(uint32_t voq, Cycle now) {
  int slot = -1;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (!entries_[i].valid) {
      slot = static_cast<int>(i);
      break;
    }
    if (slot < 0 || entries_[i].last_use < entries_[slot].last_use) slot = static_cast<int>(i);
  }
  Entry& e = entries_[slot];
  if (e.valid) {  // full: the least recently used VOQ loses its entry and is released
    ++evictions_;
    release(e, Why::evicted, now);
  }
  e = Entry{true, false, voq, 0, 0, now};
  return slot;
}

void VoqSyncCam::on_copy_forwarded(uint32_t voq, uint32_t packets, bool last_copy, const uint32_t* sent_before,
                                   size_t sent_before_count, Cycle now) {
  if (!last_copy) {
    int i = find(voq);
    if (i < 0) i = allocate(voq, now);
    Entry& e = entries_[i];
    e.ahead += packets;
    e.last_use = now;
    if (!e.suspended && e.ahead > params_.shi) {
      e.suspended = true;
      e.suspended_at = now;
      ++suspended_;
      changes_.push_back({voq, true, Why::ahead, now});
    }
    return;
  }
  for (size_t k = 0; k < sent_before_count; ++k) {
    const int i = find(sent_before[k]);
    if (i < 0) continue;  // evicted since: its count was dropped with it
    Entry& e = entries_[i];
    e.ahead = e.ahead > packets ? e.ahead - packets : 0;
    e.last_use = now;
    if (e.ahead == 0) {
      release(e, Why::released, now);
    } else if (e.suspended && e.ahead < params_.slow) {
      resume(e, Why::caught_up, now);
    }
  }
}

void VoqSyncCam::tick(Cycle now) {
  if (suspended_ == 0) return;
  for (Entry& e : entries_)
    if (e.valid && e.suspended && e.suspended_at + params_.timeout_cycles <= now) resume(e, Why::timeout, now);
}

Cycle VoqSyncCam::next_timeout() const {
  Cycle earliest = ~Cycle{0};
  if (suspended_ == 0) return earliest;
  for (const Entry& e : entries_)
    if (e.valid && e.suspended && e.suspended_at + params_.timeout_cycles < earliest)
      earliest = e.suspended_at + params_.timeout_cycles;
  return earliest;
}

void VoqSyncCam::resume(Entry& e, Why why, Cycle now) {
  e.suspended = false;
  --suspended_;
  changes_.push_back({e.voq, false, why, now});
}

void VoqSyncCam::release(Entry& e, Why why, Cycle now) {
  if (e.suspended) resume(e, why, now);
  e.valid = false;
  e.ahead = 0;
}

std::vector<VoqSyncCam::Change> VoqSyncCam::take_changes() {
  std::vector<Change> out;
  out.swap(changes_);
  return out;
}

void VoqSyncCam::reset(Cycle) {
  entries_.assign(entries_.size(), Entry{});
  changes_.clear();
  suspended_ = 0;
  evictions_ = 0;
}

uint32_t VoqSyncCam::lru_ties() const {
  uint32_t ties = 0;
  Cycle oldest = ~Cycle{0};
  for (const Entry& e : entries_) {
    if (!e.valid) continue;
    if (e.last_use < oldest) {
      oldest = e.last_use;
      ties = 0;
    }
    ties += e.last_use == oldest;
  }
  return ties;
}

uint32_t VoqSyncCam::ahead(uint32_t voq) const {
  const int i = find(voq);
  return i < 0 ? 0 : entries_[i].ahead;
}

size_t VoqSyncCam::used_entries() const {
  size_t n = 0;
  for (const Entry& e : entries_) n += e.valid;
  return n;
}

size_t VoqSyncCam::suspended_count() const { return suspended_; }

}  // namespace fabric
