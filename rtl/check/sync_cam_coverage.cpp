#include "rtl/check/sync_cam_coverage.h"

#include <algorithm>
#include <utility>

namespace fabric::stimulus {

Coverage SyncCamCoverage::bins(uint32_t entries) {
  Coverage c(
      {
          {"full", "a new VOQ found every entry taken"},
          {"eviction", "a new VOQ took the least recently used entry"},
          {"lru_tie_2", "the LRU choice broke a tie of two entries last used in one cycle"},
          {"lru_tie_3_or_more", "the LRU choice broke a tie of three or more entries"},
          {"evicted_while_suspended", "the evicted VOQ was suspended"},
          {"two_notices", "one forward resumed the evicted VOQ and suspended its own"},
          {"suspend", "a VOQ ran more than Shi packets ahead"},
          {"resume_caught_up", "a suspended VOQ fell below Slow"},
          {"release", "a count down to 0 freed an entry"},
          {"release_while_suspended", "a count down to 0 freed a suspended VOQ's entry"},
          {"count_down_without_entry", "a count down for a VOQ without an entry"},
          {"timeout_one", "a tick resumed one VOQ"},
          {"timeout_several", "a tick resumed two or more VOQs"},
          {"timeouts_in_index_order", "timed-out VOQs suspended in the order of their entries"},
          {"timeouts_out_of_index_order", "timed-out VOQs suspended in another order than their entries'"},
          {"tick_late", "a tick after a VOQ's timeout cycle"},
          {"stall", "no copy started for a timeout while a VOQ was suspended"},
          {"same_cycle_commands", "several commands in one cycle"},
          {"reset_with_entries", "a reset mid-traffic with entries taken"},
          {"reset_while_suspended", "a reset mid-traffic with a VOQ suspended"},
          {"count_at_max", "a forward brought a VOQ's count to 2^32 - 1"},
          {"deadline_at_top", "a suspended VOQ's deadline within 2^20 of 2^64 - 1"},
      },
      {
          // The contract's widths (rtl/README.md); `now` stays below 2^63.
          {"voq", 16},
          {"packets", 32},
          {"now", 63},
      });
  if (entries < 2) {
    for (Bin b : {lru_tie_2, timeout_several, timeouts_in_index_order, timeouts_out_of_index_order}) c.unreachable(b);
  }
  if (entries < 3) c.unreachable(lru_tie_3_or_more);
  return c;
}

SyncCamCoverage::SyncCamCoverage(const VoqSyncCam& reference, const SyncCam::Params& params, Coverage& coverage)
    : reference_(reference), params_(params), coverage_(coverage) {}

void SyncCamCoverage::command_at(Cycle now) {
  coverage_.saw(now_field, now);
  if (now == last_command_) coverage_.hit(same_cycle_commands);
  last_command_ = now;
}

void SyncCamCoverage::before_forward(uint32_t voq, uint32_t packets, Cycle now) {
  command_at(now);
  coverage_.saw(voq_field, voq);
  coverage_.saw(packets_field, packets);
  forwarded_ = voq;
  if (reference_.entry_of(voq) >= 0 || reference_.used_entries() < params_.entries) return;
  coverage_.hit(full);
  coverage_.hit(eviction);
  const uint32_t ties = reference_.lru_ties();
  if (ties == 2) coverage_.hit(lru_tie_2);
  if (ties >= 3) coverage_.hit(lru_tie_3_or_more);
}

void SyncCamCoverage::before_count_down(const uint32_t* voqs, size_t count, uint32_t packets, Cycle now) {
  coverage_.saw(packets_field, packets);
  for (size_t k = 0; k < count; ++k) {
    command_at(now);
    coverage_.saw(voq_field, voqs[k]);
    if (reference_.entry_of(voqs[k]) < 0) {
      coverage_.hit(count_down_without_entry);
    } else if (reference_.ahead(voqs[k]) <= packets) {
      coverage_.hit(release);
    }
  }
}

void SyncCamCoverage::before_tick(Cycle now) {
  command_at(now);
  std::vector<std::pair<int, Cycle>> due;  // {entry, suspended at} of the VOQs this tick resumes
  for (const auto& [voq, at] : suspended_at_) {
    if (at + params_.timeout_cycles > now) continue;
    due.emplace_back(reference_.entry_of(voq), at);
    if (at + params_.timeout_cycles < now) coverage_.hit(tick_late);
  }
  if (due.size() < 2) return;
  std::sort(due.begin(), due.end());
  const bool in_order =
      std::is_sorted(due.begin(), due.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  coverage_.hit(in_order ? timeouts_in_index_order : timeouts_out_of_index_order);
}

void SyncCamCoverage::before_reset() {
  if (reference_.used_entries() > 0) coverage_.hit(reset_with_entries);
  if (reference_.suspended_count() > 0) coverage_.hit(reset_while_suspended);
  suspended_at_.clear();
}

void SyncCamCoverage::after_call(const std::vector<SyncCam::Change>& changes, bool forward) {
  size_t timeouts = 0;
  for (const SyncCam::Change& c : changes) {
    if (c.suspended) {
      suspended_at_[c.voq] = c.at;
      coverage_.hit(suspend);
      continue;
    }
    suspended_at_.erase(c.voq);
    switch (c.why) {
      case SyncCam::Why::caught_up:
        coverage_.hit(resume_caught_up);
        break;
      case SyncCam::Why::timeout:
        ++timeouts;
        break;
      case SyncCam::Why::evicted:
        coverage_.hit(evicted_while_suspended);
        break;
      case SyncCam::Why::released:
        coverage_.hit(release_while_suspended);
        break;
      case SyncCam::Why::ahead:
        break;
    }
  }
  if (forward && changes.size() == 2) coverage_.hit(two_notices);
  if (forward && reference_.ahead(forwarded_) == ~uint32_t{0}) coverage_.hit(count_at_max);
  if (reference_.next_timeout() != ~Cycle{0} && reference_.next_timeout() >= ~Cycle{0} - (Cycle{1} << 20))
    coverage_.hit(deadline_at_top);
  if (timeouts == 1) coverage_.hit(timeout_one);
  if (timeouts >= 2) coverage_.hit(timeout_several);
}

void SyncCamCoverage::idle(Cycle cycles, bool suspended_when_it_stopped) {
  if (cycles >= params_.timeout_cycles && suspended_when_it_stopped) coverage_.hit(stall);
}

}  // namespace fabric::stimulus
