#include "rtl/check/packet_cache_coverage.h"

namespace fabric::stimulus {

Coverage PacketCacheCoverage::bins(uint32_t entries, uint32_t mirrors) {
  Coverage c(
      {
          {"full", "a write found no free entry"},
          {"write_takes_dead", "a write into a full cache took the LRU dead entry"},
          {"write_evicts_live", "a write into a full cache evicted the LRU live entry"},
          {"write_finds_no_victim", "a write into a full cache found no entry it could take"},
          {"write_port_busy", "a write refused: one in progress or one this cycle"},
          {"lru_tie_2", "a write or the background broke an LRU tie of two entries"},
          {"lru_tie_3_or_more", "a write or the background broke an LRU tie of three or more entries"},
          {"background_reclaim", "end cycle freed a dead entry"},
          {"background_evicts_live", "end cycle evicted an idle live entry"},
          {"background_waits_for_reads", "end cycle had work but every candidate was still being read"},
          {"filling", "a look-up of a packet still being written"},
          {"header_at_ready", "a header issued at the first cycle it may be"},
          {"mirrors_busy", "every mirror streaming"},
          {"forget_kills", "a dropped copy was an entry's last reader"},
          {"idle_gap", "cycles with no call"},
          {"reset_with_entries", "a reset mid-traffic with live entries"},
      },
      {
          // The contract's widths (rtl/README.md); `now` stays below 2^63.
          {"unit", 32},
          {"cycles", 16},
          {"copies", 16},
          {"now", 63},
      });
  // A write starts once the previous one has completed, so every live entry
  // is evictable when a write looks for one: a write finds no entry only
  // when every entry is dead and still being read, at most one per mirror.
  if (entries > mirrors) c.unreachable(write_finds_no_victim);
  if (entries < 2) c.unreachable(lru_tie_2);
  if (entries < 3) c.unreachable(lru_tie_3_or_more);
  return c;
}

PacketCacheCoverage::PacketCacheCoverage(const MulticastCache& reference, Coverage& coverage)
    : reference_(reference), coverage_(coverage) {}

void PacketCacheCoverage::tie(uint32_t ties) {
  if (ties == 2) coverage_.hit(lru_tie_2);
  if (ties >= 3) coverage_.hit(lru_tie_3_or_more);
}

void PacketCacheCoverage::looked_up(uint32_t unit, const PacketCache::Lookup& look, Cycle now) {
  coverage_.saw(unit_field, unit);
  coverage_.saw(now_field, now);
  if (look.state == PacketCache::State::filling) coverage_.hit(filling);
}

void PacketCacheCoverage::before_pass_through(uint32_t unit, uint32_t cycles, uint32_t copies_to_come, Cycle now) {
  coverage_.saw(unit_field, unit);
  coverage_.saw(cycles_field, cycles);
  coverage_.saw(copies_field, copies_to_come);
  coverage_.saw(now_field, now);
  write_wanted_ = copies_to_come > 0;
  if (!write_wanted_) return;
  port_free_ = reference_.write_port_free(now);
  choice_ = reference_.write_choice(now);
}

void PacketCacheCoverage::after_pass_through(bool written) {
  if (!write_wanted_) return;
  if (!port_free_) {
    coverage_.hit(write_port_busy);
    return;
  }
  if (choice_.victim == MulticastCache::Victim::free) return;
  coverage_.hit(full);
  switch (choice_.victim) {
    case MulticastCache::Victim::dead:
      coverage_.hit(write_takes_dead);
      break;
    case MulticastCache::Victim::live:
      coverage_.hit(write_evicts_live);
      break;
    case MulticastCache::Victim::none:
      coverage_.hit(write_finds_no_victim);
      break;
    case MulticastCache::Victim::free:
      break;
  }
  if (written) tie(choice_.ties);
}

void PacketCacheCoverage::before_issue(uint32_t unit, uint32_t cycles, Cycle ready_at, Cycle now) {
  coverage_.saw(unit_field, unit);
  coverage_.saw(cycles_field, cycles);
  coverage_.saw(now_field, now);
  if (ready_at == now) coverage_.hit(header_at_ready);
}

void PacketCacheCoverage::mirror_free_at(Cycle free_at, Cycle now) {
  if (free_at > now) coverage_.hit(mirrors_busy);
}

void PacketCacheCoverage::before_forget() { live_before_ = reference_.live_entries(); }

void PacketCacheCoverage::after_forget() {
  if (reference_.live_entries() < live_before_) coverage_.hit(forget_kills);
}

void PacketCacheCoverage::before_end_cycle(Cycle now) {
  const MulticastCache::Choice c = reference_.background_choice(now);
  if (c.victim == MulticastCache::Victim::dead) coverage_.hit(background_reclaim);
  if (c.victim == MulticastCache::Victim::live) coverage_.hit(background_evicts_live);
  if (c.victim == MulticastCache::Victim::none && reference_.background_work())
    coverage_.hit(background_waits_for_reads);
  tie(c.ties);
}

void PacketCacheCoverage::gap(Cycle cycles) {
  if (cycles >= 2) coverage_.hit(idle_gap);
}

void PacketCacheCoverage::before_reset() {
  if (reference_.live_entries() > 0) coverage_.hit(reset_with_entries);
}

}  // namespace fabric::stimulus
