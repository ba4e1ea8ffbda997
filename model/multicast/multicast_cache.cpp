#include "model/multicast/multicast_cache.h"

#include <algorithm>
#include <stdexcept>

namespace fabric {

MulticastCache::MulticastCache(const Params& params, int ports)
    : params_(params), entries_(params.entries), free_count_(params.entries),
      mirror_busy_until_(params.mirrors, 0), stats_(static_cast<size_t>(ports)) {
  if (params_.entries < 1) throw std::invalid_argument("multicast cache: at least one entry");
  if (params_.mirrors < 1) throw std::invalid_argument("multicast cache: at least one mirror");
  // Highest address on top of the stack: entries are used from address 0 up.
  for (int a = static_cast<int>(params_.entries) - 1; a >= 0; --a) free_list_.push_back(a);
  tags_.reserve(params_.entries * 2);
}

MulticastCache::Lookup MulticastCache::lookup(int port, uint32_t unit, Cycle now) const {
  const auto it = tags_.find(key(port, unit));
  if (it == tags_.end()) return {State::miss, 0};
  const Entry& e = entries_[it->second];
  if (e.ready_at <= now) return {State::hit, e.ready_at};
  return {State::filling, e.ready_at};
}

bool MulticastCache::pass_through(int port, uint32_t unit, uint32_t cycles, uint32_t copies_to_come,
                                  bool first_copy, Cycle now) {
  if (!first_copy) ++stats_[port].misses;
  if (copies_to_come == 0) return false;
  if (now < write_busy_until_ || last_write_cycle_ == now) return false;  // one writer at a time
  if (tags_.count(key(port, unit))) throw std::logic_error("multicast cache: writing a packet it holds");
  const int a = allocate(now);
  if (a < 0) return false;
  Entry& e = entries_[a];
  e = Entry{true, port, unit, copies_to_come, 0, now + params_.header_lag_cycles, now + cycles, now};
  tags_.emplace(key(port, unit), a);
  write_busy_until_ = now + cycles;
  last_write_cycle_ = now;
  ++stats_[port].writes;
  return true;
}

int MulticastCache::issue(int port, uint32_t unit, uint32_t cycles, Cycle now) {
  const auto it = tags_.find(key(port, unit));
  if (it == tags_.end() || entries_[it->second].ready_at > now)
    throw std::logic_error("multicast cache: header issued for a packet that does not hit");
  int mirror = -1;
  for (size_t m = 0; m < mirror_busy_until_.size(); ++m) {
    if (mirror_busy_until_[m] <= now) {
      mirror = static_cast<int>(m);
      break;
    }
  }
  if (mirror < 0) return -1;
  mirror_busy_until_[mirror] = now + cycles;
  const int a = it->second;
  Entry& e = entries_[a];
  --e.copies_left;
  if (e.copies_served++ == 0) ++served_entries_;
  e.last_use = now;
  ++stats_[port].hits;
  // The mirror streams at the write port's rate: a write into the freed
  // entry trails the read and cannot overtake it.
  if (e.copies_left == 0) release(a);
  return mirror;
}

void MulticastCache::forget_copy(int port, uint32_t unit) {
  const auto it = tags_.find(key(port, unit));
  if (it == tags_.end()) return;
  const int a = it->second;
  if (--entries_[a].copies_left == 0) release(a);
}

void MulticastCache::end_cycle(Cycle now) {
  if (free_count_ >= params_.background_free_min) return;
  const int victim = least_recently_used(now, true);
  if (victim >= 0) evict(victim);
}

bool MulticastCache::background_work() const {
  return free_count_ < params_.background_free_min && served_entries_ > 0;
}

std::vector<MulticastCache::Eviction> MulticastCache::take_evictions() {
  std::vector<Eviction> out;
  out.swap(evictions_);
  return out;
}

Cycle MulticastCache::mirror_free_at(Cycle now) const {
  Cycle earliest = ~Cycle{0};
  for (Cycle busy : mirror_busy_until_) earliest = std::min(earliest, std::max(busy, now));
  return earliest;
}

int MulticastCache::allocate(Cycle now) {
  if (free_list_.empty()) {
    const int victim = least_recently_used(now, false);
    if (victim < 0) return -1;
    evict(victim);
  }
  const int a = free_list_.back();
  free_list_.pop_back();
  --free_count_;
  return a;
}

// The least recently used entry whose write has completed; with served_only,
// only entries that already replicated a copy (background eviction never
// takes an entry whose copies are all still to come).
int MulticastCache::least_recently_used(Cycle now, bool served_only) const {
  int best = -1;
  for (size_t a = 0; a < entries_.size(); ++a) {
    const Entry& e = entries_[a];
    if (!e.valid || e.written_at > now || (served_only && e.copies_served == 0)) continue;
    if (best < 0 || e.last_use < entries_[best].last_use) best = static_cast<int>(a);
  }
  return best;
}

void MulticastCache::evict(int a) {
  const Entry& e = entries_[a];
  if (e.copies_left > 0) {
    ++stats_[e.port].premature_evictions;
    evictions_.push_back({e.port, e.unit, e.copies_left});
  }
  release(a);
}

void MulticastCache::release(int a) {
  Entry& e = entries_[a];
  if (e.copies_served > 0) --served_entries_;
  tags_.erase(key(e.port, e.unit));
  e.valid = false;
  free_list_.push_back(a);
  ++free_count_;
}

}  // namespace fabric
