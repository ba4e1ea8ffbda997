#include "traffic/block_stimulus.h"

#include <algorithm>
#include <deque>
#include <vector>

namespace fabric::stimulus {

SyncCamStimulus::SyncCamStimulus(uint32_t seed, uint32_t entries, bool with_timeouts)
    : rng_(seed), voqs_(2 * entries + 2), with_timeouts_(with_timeouts) {
  params_.entries = entries;
  params_.shi = 1 + rng_() % 20;
  params_.slow = rng_() % (params_.shi + 1);
  params_.timeout_cycles = with_timeouts ? 20 + rng_() % 381 : kNoTimeout;
}

SyncCamStimulus::Phase SyncCamStimulus::next_phase(Cycle now) {
  Phase p;
  const uint32_t pick = rng_() % 8;
  p.kind = pick < 3 ? PhaseKind::crowd : pick < 5 ? PhaseKind::few : pick < 6 ? PhaseKind::stall : PhaseKind::late_ticks;
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
    uint32_t copies;
    std::vector<uint32_t> started;
  };
  std::deque<Frame> frames;  // stable addresses; done frames leave from the front
  std::vector<std::deque<Frame*>> queue(voqs_);
  size_t queued = 0;
  const size_t backlog = 8 * static_cast<size_t>(voqs_);
  Result r;
  Phase phase{PhaseKind::crowd, voqs_, kNone, 0};
  bool suspended_when_stalled = false;
  Cycle stall_from = 0;
  Cycle next_tick = 0;
  const auto observe = [&](bool forward) {
    const std::vector<SyncCam::Change> changes = cam.take_changes();
    if (coverage) coverage->after_call(changes, forward);
  };
  for (Cycle now = 0; now < cycles; ++now) {
    if (now >= phase.end) {
      if (phase.kind == PhaseKind::stall && coverage) coverage->idle(now - stall_from, suspended_when_stalled);
      if (now > 0 && rng_() % 6 == 0) {  // a reset mid-traffic
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
      frames.push_back({static_cast<uint32_t>(1 + rng_() % 36), static_cast<uint32_t>(targets.size()), {}});
      for (uint32_t v : targets) queue[v].push_back(&frames.back());
      queued += targets.size();
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
      if (!cam.suspended(v) && v != phase.laggard) eligible.push_back(v);
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
      const bool last = f.started.size() + 1 == f.copies;
      if (coverage && !last) coverage->before_forward(v, now);
      if (coverage && last) coverage->before_count_down(f.started.data(), f.started.size(), f.packets, now);
      cam.on_copy_forwarded(v, f.packets, last, f.started.data(), f.started.size(), now);
      f.started.push_back(v);
      observe(!last);
      ++r.calls;
      if (rng_() % 8 == 0) {  // now and then its count, as a query
        cam.ahead(v);
        ++r.calls;
      }
      ++r.copies_started;
    }
    while (!frames.empty() && frames.front().started.size() == frames.front().copies) frames.pop_front();
  }
  return r;
}

PacketCacheStimulus::PacketCacheStimulus(uint32_t seed, uint32_t entries, uint32_t mirrors, int ports)
    : rng_(seed), ports_(ports), units_(std::max<uint32_t>(4, 3 * entries / static_cast<uint32_t>(ports))) {
  params_.entries = entries;
  params_.mirrors = mirrors;
  params_.header_lag_cycles = rng_() % 5;
  params_.background_free_min = rng_() % (entries / 2 + 1);
  params_.background_evicts_live = rng_() % 2 == 0;
}

PacketCacheStimulus::Result PacketCacheStimulus::run(PacketCache& cache, Cycle cycles, PacketCacheCoverage* coverage) {
  struct Packet {
    int port;
    uint32_t unit;
    uint32_t cycles;     // on an interface or a mirror
    uint32_t remaining;  // copies still to send or drop
    bool sent_one;
  };
  std::vector<Packet> active;
  std::vector<std::vector<bool>> busy(static_cast<size_t>(ports_), std::vector<bool>(units_, false));
  Result r;
  const auto look_up = [&](const Packet& p, Cycle now) {
    ++r.calls;
    const PacketCache::Lookup look = cache.lookup(p.port, p.unit, now);
    if (coverage) coverage->looked_up(look, now);
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
      if (coverage) coverage->before_issue(look.ready_at, now);
      if (cache.issue(p.port, p.unit, p.cycles, now) < 0) return;
      ++r.hits;
      --p.remaining;
    } else if (look.state == PacketCache::State::miss) {
      ++r.calls;
      if (coverage) coverage->before_pass_through(p.remaining - 1, now);
      const bool written = cache.pass_through(p.port, p.unit, p.cycles, p.remaining - 1, !p.sent_one, now);
      if (coverage) coverage->after_pass_through(written);
      r.writes += written;
      p.sent_one = true;
      --p.remaining;
    }
    ++r.calls;
  };
  enum class Readers { busy, slow, flush };
  Readers readers = Readers::busy;
  Cycle now = 0;
  Cycle phase_end = 0;
  while (now < cycles) {
    if (now >= phase_end) {
      // Busy readers (four copies move a cycle); slow ones (one in four
      // cycles: live entries pile up and the cache fills); or a flush
      // (every cached packet's header at once, then one payload: the
      // entries die together and a write finds them all still being read).
      const uint32_t pick = rng_() % 8;
      readers = pick < 4 ? Readers::busy : pick < 7 ? Readers::slow : Readers::flush;
      phase_end = now + (readers == Readers::slow ? 500 + rng_() % 2500 : readers == Readers::flush ? 20 + rng_() % 100
                                                                                                      : 300 + rng_() % 1500);
    }
    // New packets, each in a buffer unit the cache holds nothing of.
    for (int port = 0; port < ports_; ++port) {
      if (rng_() % 3 != 0) continue;
      const uint32_t unit = rng_() % units_;
      Packet p{port, unit, static_cast<uint32_t>(1 + rng_() % 8), static_cast<uint32_t>(1 + rng_() % 12), false};
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
      busy[active[i].port][active[i].unit] = false;
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
    if (rng_() % 2000 == 0 && now < cycles) {
      if (coverage) coverage->before_reset();
      cache.reset(now);
      ++r.calls;
    }
  }
  return r;
}

}  // namespace fabric::stimulus
