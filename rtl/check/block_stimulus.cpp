#include "rtl/check/block_stimulus.h"

#include <algorithm>
#include <deque>
#include <vector>

namespace fabric::stimulus {

namespace {

// `count` distinct ids up to `max` (a mask of all ones): 0, max, then pairs
// that differ in one bit only, the bit moving on from `first_bit` pair by
// pair: a block that compares fewer bits confuses a pair.
std::vector<uint32_t> ids_over_the_width(uint32_t count, uint32_t max, uint32_t first_bit, std::mt19937& rng) {
  uint32_t bits = 0;
  while (bits < 32 && (max >> bits) != 0) ++bits;
  std::vector<uint32_t> ids{0, max};
  for (uint32_t bit = first_bit; ids.size() < count; ++bit) {
    const uint32_t a = rng() & max;
    const uint32_t b = a ^ (uint32_t{1} << (bit % bits));
    const auto taken = [&](uint32_t id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
    if (taken(a) || taken(b)) continue;
    ids.push_back(a);
    if (ids.size() < count) ids.push_back(b);
  }
  ids.resize(count);
  return ids;
}

}  // namespace

Cycle start_cycle(uint32_t seed, uint32_t draw, Cycle cycles, Cycle headroom) {
  const Cycle before = draw % (cycles / 2 + 1);
  switch (seed % 4) {
    case 1:
      return (Cycle{1} << 40) - before;
    case 2:
      return (Cycle{1} << 62) - before;
    case 3:
      return widths::kNowLimit - 1 - cycles - headroom - draw % 64;
    default:
      return 0;
  }
}

SyncCamStimulus::SyncCamStimulus(uint32_t seed, uint32_t entries, bool with_timeouts)
    : rng_(seed), seed_(seed), voqs_(2 * entries + 2), with_timeouts_(with_timeouts) {
  params_.entries = entries;
  params_.shi = 1 + rng_() % 20;
  params_.slow = rng_() % (params_.shi + 1);
  params_.timeout_cycles = with_timeouts ? 20 + rng_() % 381 : kNoTimeout;
  ids_ = ids_over_the_width(voqs_, widths::kMaxVoq, seed, rng_);
}

SyncCamStimulus::Phase SyncCamStimulus::next_phase(Cycle now) {
  Phase p;
  const uint32_t pick = rng_() % 8;
  p.kind = pick < 3   ? PhaseKind::crowd
           : pick < 5 ? PhaseKind::few
           : pick < 6 ? PhaseKind::stall
                      : PhaseKind::late_ticks;
  // crowd: more VOQs than entries (the CAM fills and evicts); few: at most
  // half as many (entries stay, counts grow, VOQs suspend). Late ticks (with
  // timeouts): one VOQ more than entries, one of them a laggard that starts
  // nothing (its branch is stalled): the others need no more than the
  // entries, run ahead, suspend and time out at different cycles.
  p.active = p.kind == PhaseKind::crowd ? voqs_ : std::min<uint32_t>(voqs_, 2 + rng_() % (params_.entries / 2 + 1));
  p.laggard = kNone;
  if (p.kind == PhaseKind::late_ticks && with_timeouts_) {
    p.active = std::min<uint32_t>(voqs_, params_.entries + 1);
    p.laggard = rng_() % p.active;
  }
  const Cycle timeout = with_timeouts_ ? params_.timeout_cycles : 400;
  p.end = now + (p.kind == PhaseKind::stall ? timeout + 1 + rng_() % timeout : 300 + rng_() % 1500);
  return p;
}

SyncCamStimulus::Result SyncCamStimulus::run(SyncCam& cam, Cycle cycles, SyncCamCoverage* coverage) {
  struct Frame {
    uint32_t packets;
    std::vector<uint32_t> targets;  // VOQs (0 .. voqs_ - 1)
    std::vector<uint32_t> started;  // ids of the VOQs that started a copy
  };
  std::deque<Frame> frames;  // stable addresses; done frames leave from the front
  std::vector<std::deque<Frame*>> queue(voqs_);
  // Per VOQ, the packets of the frames it holds or started that are not
  // done: its count (pkts_ahead_cnt) never exceeds it, so a frame's packets
  // up to the least room of its VOQs never overflow 32 bits.
  std::vector<uint64_t> outstanding(voqs_, 0);
  size_t queued = 0;
  const size_t backlog = 8 * static_cast<size_t>(voqs_);
  Result r;
  const Cycle start = start_cycle(seed_, rng_(), cycles);
  Phase phase{PhaseKind::crowd, voqs_, kNone, start};
  bool suspended_when_stalled = false;
  Cycle stall_from = start;
  Cycle next_tick = start;
  const auto observe = [&](bool forward) {
    const std::vector<SyncCam::Change> changes = cam.take_changes();
    if (coverage) coverage->after_call(changes, forward);
  };
  for (Cycle now = start; now - start < cycles; ++now) {
    if (now >= phase.end) {
      if (phase.kind == PhaseKind::stall && coverage) coverage->idle(now - stall_from, suspended_when_stalled);
      if (now > start && rng_() % 6 == 0) {  // a reset mid-traffic
        if (coverage) coverage->before_reset();
        cam.reset(now);
        observe(false);
        ++r.calls;
      }
      phase = next_phase(now);
      stall_from = now;
      suspended_when_stalled = cam.suspended_count() > 0;
    }
    if (queued < backlog && rng_() % 3 != 0) {  // a frame arrives at some of the phase's VOQs
      std::vector<uint32_t> targets(phase.active);
      for (uint32_t v = 0; v < phase.active; ++v) targets[v] = v;
      std::shuffle(targets.begin(), targets.end(), rng_);
      targets.resize(1 + rng_() % std::min<uint32_t>(phase.active, 8));
      uint64_t room = widths::kMaxPackets;
      for (uint32_t v : targets) room = std::min(room, widths::kMaxPackets - outstanding[v]);
      uint64_t packets = 1 + rng_() % 36;
      if (rng_() % 64 == 0 && room > 0) packets = rng_() % 2 == 0 ? room : 1 + (uint64_t{rng_()} << 32 | rng_()) % room;
      packets = std::min(packets, room);
      if (packets > 0) {
        frames.push_back({static_cast<uint32_t>(packets), targets, {}});
        for (uint32_t v : targets) {
          queue[v].push_back(&frames.back());
          outstanding[v] += packets;
        }
        queued += targets.size();
      }
    }
    if (with_timeouts_ && cam.suspended_count() > 0 && (phase.kind != PhaseKind::late_ticks || now >= next_tick)) {
      // Late ticks: the tick comes a while after the timeouts, several at once.
      if (phase.kind == PhaseKind::late_ticks) next_tick = now + 1 + rng_() % (params_.timeout_cycles / 2 + 1);
      if (coverage) coverage->before_tick(now);
      cam.tick(now);
      observe(false);
      ++r.calls;
    }
    std::vector<uint32_t> eligible;
    bool waiting = false;
    for (uint32_t v = 0; v < voqs_; ++v) {
      if (queue[v].empty()) continue;
      waiting = true;
      ++r.calls;
      if (!cam.suspended(ids_[v]) && v != phase.laggard) eligible.push_back(v);
    }
    if (!with_timeouts_ && waiting && eligible.empty()) {
      r.deadlock = now;
      return r;
    }
    if (phase.kind == PhaseKind::stall || eligible.empty() || rng_() % 4 == 0) continue;
    std::shuffle(eligible.begin(), eligible.end(), rng_);  // the adversary picks who goes, up to three
    eligible.resize(std::min<size_t>(eligible.size(), 1 + rng_() % 3));
    for (uint32_t v : eligible) {
      Frame& f = *queue[v].front();
      queue[v].pop_front();
      --queued;
      const uint32_t id = ids_[v];
      const bool last = f.started.size() + 1 == f.targets.size();
      if (coverage && !last) coverage->before_forward(id, f.packets, now);
      if (coverage && last) coverage->before_count_down(f.started.data(), f.started.size(), f.packets, now);
      cam.on_copy_forwarded(id, f.packets, last, f.started.data(), f.started.size(), now);
      f.started.push_back(id);
      if (last)
        for (uint32_t t : f.targets) outstanding[t] -= f.packets;
      observe(!last);
      ++r.calls;
      if (rng_() % 8 == 0) {  // now and then its count, as a query
        cam.ahead(id);
        ++r.calls;
      }
      ++r.copies_started;
    }
    while (!frames.empty() && frames.front().started.size() == frames.front().targets.size()) frames.pop_front();
  }
  return r;
}

PacketCacheStimulus::PacketCacheStimulus(uint32_t seed, uint32_t entries, uint32_t mirrors, int ports)
    : rng_(seed),
      seed_(seed),
      ports_(ports),
      units_(std::max<uint32_t>(4, 3 * entries / static_cast<uint32_t>(ports))) {
  params_.entries = entries;
  params_.mirrors = mirrors;
  params_.header_lag_cycles = rng_() % 5;
  params_.background_free_min = rng_() % (entries / 2 + 1);
  params_.background_evicts_live = rng_() % 2 == 0;
  unit_ids_ = ids_over_the_width(units_, widths::kMaxUnit, seed, rng_);
}

PacketCacheStimulus::Result PacketCacheStimulus::run(PacketCache& cache, Cycle cycles, PacketCacheCoverage* coverage) {
  struct Packet {
    int port;
    uint32_t unit;       // its id (unit_ids_)
    uint32_t cycles;     // on an interface or a mirror
    uint32_t remaining;  // copies still to send or drop
    bool sent_one;
    uint32_t told;   // more copies the cache is told of, which never come
    uint32_t local;  // its unit, 0 .. units_ - 1
  };
  // Time skipped to the end of a long packet, at most: the run's time stays
  // below widths::kNowLimit.
  constexpr Cycle kMaxSkipped = Cycle{1} << 24;
  const Cycle start = start_cycle(seed_, rng_(), cycles, kMaxSkipped + widths::kMaxCacheCycles);
  Cycle skipped = 0;
  Cycle long_until = 0;  // a long packet moved this cycle ends then
  std::vector<Packet> active;
  std::vector<std::vector<bool>> busy(static_cast<size_t>(ports_), std::vector<bool>(units_, false));
  Result r;
  // A packet's length: 1-8 cycles; one in 256 up to the contract's maximum
  // (while the run may still skip to its end).
  const auto length = [&]() -> uint32_t {
    if (skipped >= kMaxSkipped || rng_() % 256 != 0) return 1 + rng_() % 8;
    return rng_() % 2 == 0 ? widths::kMaxCacheCycles : 1 + rng_() % widths::kMaxCacheCycles;
  };
  const auto moved = [&](const Packet& p, Cycle now) {
    if (p.cycles > 64) long_until = std::max(long_until, now + p.cycles);
  };
  const auto look_up = [&](const Packet& p, Cycle now) {
    ++r.calls;
    const PacketCache::Lookup look = cache.lookup(p.port, p.unit, now);
    if (coverage) coverage->looked_up(p.unit, look, now);
    return look;
  };
  // One copy of a packet moves: a header on a hit (a mirror free), the
  // payload on a miss, or (one in ten, unless `may_drop` is false) dropped.
  const auto move = [&](Packet& p, Cycle now, bool may_drop) {
    const PacketCache::Lookup look = look_up(p, now);
    if (may_drop && rng_() % 10 == 0) {
      if (coverage) coverage->before_forget();
      cache.forget_copy(p.port, p.unit);
      if (coverage) coverage->after_forget();
      --p.remaining;
    } else if (look.state == PacketCache::State::hit) {
      ++r.calls;
      const Cycle free_at = cache.mirror_free_at(now);
      if (coverage) coverage->mirror_free_at(free_at, now);
      if (free_at > now) return;
      ++r.calls;
      if (coverage) coverage->before_issue(p.unit, p.cycles, look.ready_at, now);
      if (cache.issue(p.port, p.unit, p.cycles, now) < 0) return;
      moved(p, now);
      ++r.hits;
      --p.remaining;
    } else if (look.state == PacketCache::State::miss) {
      ++r.calls;
      const uint32_t to_come = p.remaining - 1 + p.told;
      if (coverage) coverage->before_pass_through(p.unit, p.cycles, to_come, now);
      const bool written = cache.pass_through(p.port, p.unit, p.cycles, to_come, !p.sent_one, now);
      if (coverage) coverage->after_pass_through(written);
      if (written) moved(p, now);
      r.writes += written;
      p.sent_one = true;
      --p.remaining;
    }
    ++r.calls;
  };
  enum class Readers { busy, slow, flush };
  Readers readers = Readers::busy;
  Cycle now = start;
  Cycle phase_end = start;
  while (now - start - skipped < cycles) {
    if (now >= phase_end) {
      // Busy readers (four copies move a cycle); slow ones (one in four
      // cycles: live entries pile up and the cache fills); or a flush
      // (every cached packet's header at once, then one payload: the
      // entries die together and a write finds them all still being read).
      const uint32_t pick = rng_() % 8;
      readers = pick < 4 ? Readers::busy : pick < 7 ? Readers::slow : Readers::flush;
      phase_end = now + (readers == Readers::slow    ? 500 + rng_() % 2500
                         : readers == Readers::flush ? 20 + rng_() % 100
                                                     : 300 + rng_() % 1500);
    }
    // New packets, each in a buffer unit the cache holds nothing of.
    for (int port = 0; port < ports_; ++port) {
      if (rng_() % 3 != 0) continue;
      const uint32_t unit = rng_() % units_;
      Packet p{port, unit_ids_[unit], length(), static_cast<uint32_t>(1 + rng_() % 12), false, 0, unit};
      // One in 1024 tells of copies up to the contract's maximum.
      if (rng_() % 1024 == 0) {
        const uint32_t most = widths::kMaxCopies - (p.remaining - 1);
        p.told = rng_() % 2 == 0 ? most : rng_() % (most + 1);
      }
      if (busy[port][unit] || look_up(p, now).state != PacketCache::State::miss) continue;
      busy[port][unit] = true;
      active.push_back(p);
    }
    if (readers == Readers::flush) {
      for (Packet& p : active)
        if (p.remaining > 0 && cache.lookup(p.port, p.unit, now).state == PacketCache::State::hit) move(p, now, false);
      const size_t from = active.empty() ? 0 : rng_() % active.size();  // then one payload, of a packet not cached
      for (size_t k = 0; k < active.size(); ++k) {
        Packet& p = active[(from + k) % active.size()];
        if (p.remaining == 0 || cache.lookup(p.port, p.unit, now).state != PacketCache::State::miss) continue;
        move(p, now, false);
        break;
      }
    } else {
      const int moves = readers == Readers::busy ? 4 : rng_() % 4 == 0;
      for (int step = 0; step < moves && !active.empty(); ++step) {
        Packet& p = active[rng_() % active.size()];
        if (p.remaining > 0) move(p, now, true);
      }
    }
    for (size_t i = 0; i < active.size();) {  // packets whose copies are all gone free their unit
      if (active[i].remaining > 0) {
        ++i;
        continue;
      }
      busy[active[i].port][active[i].local] = false;
      active[i] = active.back();
      active.pop_back();
    }
    if (coverage) coverage->before_end_cycle(now);
    cache.end_cycle(now);
    r.evictions += cache.take_evictions().size();
    r.calls += 2;
    // Now and then a gap (reads complete, reclaim catches up), and rarely a reset.
    const Cycle step = rng_() % 8 == 0 ? 1 + rng_() % 30 : 1;
    if (coverage) coverage->gap(step);
    now += step;
    // After a long packet, now and then straight to its end (or just before).
    if (long_until > now && skipped < kMaxSkipped && rng_() % 2 == 0) {
      const Cycle skip = long_until - now - rng_() % 2;
      if (coverage) coverage->gap(skip);
      now += skip;
      skipped += skip;
    }
    if (long_until <= now) long_until = 0;
    if (rng_() % 2000 == 0 && now - start - skipped < cycles) {
      if (coverage) coverage->before_reset();
      cache.reset(now);
      ++r.calls;
    }
  }
  return r;
}

}  // namespace fabric::stimulus
