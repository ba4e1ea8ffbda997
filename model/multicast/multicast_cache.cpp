#include "model/multicast/multicast_cache.h"

#include <algorithm>
#include <stdexcept>

namespace fabric {

MulticastCache::MulticastCache(const Params& params, int ports) : params_(params), stats_(static_cast<size_t>(ports)) {
  if (params_.entries < 1) throw std::invalid_argument("multicast cache: at least one entry");
  if (params_.mirrors < 1) throw std::invalid_argument("multicast cache: at least one mirror");
  tags_.reserve(params_.entries * 2);
  reset(0);
}

void MulticastCache::reset(Cycle) {
  entries_.assign(params_.entries, Entry{});
  // Highest address on top of the stack: entries are used from address 0 up.
  free_list_.clear();
  for (int a = static_cast<int>(params_.entries) - 1; a >= 0; --a) free_list_.push_back(a);
  live_count_ = dead_count_ = 0;
  mirror_busy_until_.assign(params_.mirrors, 0);
  write_busy_until_ = 0;
  last_write_cycle_ = ~Cycle{0};
  tags_.clear();
  evictions_.clear();
}

MulticastCache::Lookup MulticastCache::lookup(int port, uint32_t unit, Cycle now) const {
  const auto it = tags_.find(key(port, unit));
  if (it == tags_.end()) return {State::miss, 0};
  const Entry& e = entries_[it->second];
  if (e.ready_at <= now) return {State::hit, e.ready_at};
  return {State::filling, e.ready_at};
}

bool MulticastCache::pass_through(int port, uint32_t unit, uint32_t cycles, uint32_t copies_to_come, bool first_copy,
                                  Cycle now) {
  if (!first_copy) ++stats_[port].misses;
  if (copies_to_come == 0) return false;
  if (!write_port_free(now)) return false;  // one writer at a time
  if (tags_.count(key(port, unit))) throw std::logic_error("multicast cache: writing a packet it holds");
  const int a = allocate(now);
  if (a < 0) return false;
  const Cycle written_at = now + cycles;
  entries_[a] = Entry{true, port, unit, copies_to_come, now + params_.header_lag_cycles, written_at, written_at, now};
  tags_.emplace(key(port, unit), a);
  ++live_count_;
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
  e.last_use = now;
  e.accesses_done_at = std::max(e.accesses_done_at, now + cycles);
  ++stats_[port].hits;
  if (--e.copies_left == 0) die(a);
  return mirror;
}

void MulticastCache::forget_copy(int port, uint32_t unit) {
  const auto it = tags_.find(key(port, unit));
  if (it == tags_.end()) return;  // not cached: a later write counts the copies still to come
  const int a = it->second;
  if (--entries_[a].copies_left == 0) die(a);
}

void MulticastCache::end_cycle(Cycle now) {
  if (!background_work()) return;
  const int dead = least_recently_used(now, Candidates::dead).address;
  if (dead >= 0) {
    ++stats_[entries_[dead].port].background_reclaims;
    reclaim(dead);
    return;
  }
  if (!params_.background_evicts_live) return;  // the dead entries are still being read
  const int idle = least_recently_used(now, Candidates::idle_live).address;
  if (idle >= 0) evict(idle);
}

MulticastCache::Choice MulticastCache::write_choice(Cycle now) const {
  if (!free_list_.empty()) return {Victim::free, 0};
  const Lru dead = least_recently_used(now, Candidates::dead);
  if (dead.address >= 0) return {Victim::dead, dead.ties};
  const Lru live = least_recently_used(now, Candidates::live);
  if (live.address >= 0) return {Victim::live, live.ties};
  return {};
}

MulticastCache::Choice MulticastCache::background_choice(Cycle now) const {
  if (!background_work()) return {};
  const Lru dead = least_recently_used(now, Candidates::dead);
  if (dead.address >= 0) return {Victim::dead, dead.ties};
  if (!params_.background_evicts_live) return {};
  const Lru idle = least_recently_used(now, Candidates::idle_live);
  if (idle.address >= 0) return {Victim::live, idle.ties};
  return {};
}

bool MulticastCache::background_work() const {
  return free_entries() < params_.background_free_min &&
         (dead_count_ > 0 || (params_.background_evicts_live && live_count_ > 0));
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

// A free entry; else a dead one (no copy loses anything); else the least
// recently used live entry, evicted with a notice to its port.
int MulticastCache::allocate(Cycle now) {
  if (free_list_.empty()) {
    const int dead = least_recently_used(now, Candidates::dead).address;
    if (dead >= 0) {
      reclaim(dead);
    } else {
      const int live = least_recently_used(now, Candidates::live).address;
      if (live < 0) return -1;
      evict(live);
    }
  }
  const int a = free_list_.back();
  free_list_.pop_back();
  return a;
}

// The least recently used entry among the live ones whose write has
// completed, the live ones whose write and reads have completed, or the
// dead ones whose write and reads have completed.
MulticastCache::Lru MulticastCache::least_recently_used(Cycle now, Candidates among) const {
  Lru best;
  for (size_t a = 0; a < entries_.size(); ++a) {
    const Entry& e = entries_[a];
    if (!e.valid) continue;
    const bool candidate = among == Candidates::live        ? e.copies_left > 0 && e.written_at <= now
                           : among == Candidates::idle_live ? e.copies_left > 0 && e.accesses_done_at <= now
                                                            : e.copies_left == 0 && e.accesses_done_at <= now;
    if (!candidate) continue;
    if (best.address < 0 || e.last_use < entries_[best.address].last_use) {
      best = {static_cast<int>(a), 1};
    } else if (e.last_use == entries_[best.address].last_use) {
      ++best.ties;
    }
  }
  return best;
}

// No header will read the entry again: its tag goes at once (the port may
// reuse the buffer unit for another packet), the entry once it is reclaimed.
void MulticastCache::die(int a) {
  const Entry& e = entries_[a];
  tags_.erase(key(e.port, e.unit));
  --live_count_;
  ++dead_count_;
}

void MulticastCache::evict(int a) {
  const Entry& e = entries_[a];
  ++stats_[e.port].premature_evictions;
  evictions_.push_back({e.port, e.unit, e.copies_left});
  tags_.erase(key(e.port, e.unit));
  --live_count_;
  free_entry(a);
}

void MulticastCache::reclaim(int a) {
  --dead_count_;
  free_entry(a);
}

void MulticastCache::free_entry(int a) {
  entries_[a].valid = false;
  free_list_.push_back(a);
}

}  // namespace fabric
