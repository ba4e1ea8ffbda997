#include "traffic/block_stimulus.h"

#include <algorithm>
#include <deque>
#include <vector>

namespace fabric::stimulus {

SyncCamStimulus::SyncCamStimulus(uint32_t seed, uint32_t entries, bool with_timeouts)
    : rng_(seed), with_timeouts_(with_timeouts) {
  voqs_ = 2 + rng_() % 10;
  params_.entries = entries;
  params_.shi = 1 + rng_() % 20;
  params_.slow = rng_() % (params_.shi + 1);
  params_.timeout_cycles = with_timeouts ? 20 + rng_() % 381 : ~Cycle{0} / 2;
}

SyncCamStimulus::Result SyncCamStimulus::run(SyncCam& cam, Cycle cycles) {
  struct Frame {
    uint32_t packets;
    uint32_t copies;
    std::vector<uint32_t> started;
  };
  std::deque<Frame> frames;  // stable addresses
  std::vector<std::deque<Frame*>> queue(voqs_);
  Result r;
  for (Cycle now = 0; now < cycles; ++now) {
    if (rng_() % 3 != 0) {  // a frame arrives
      std::vector<uint32_t> targets(voqs_);
      for (uint32_t v = 0; v < voqs_; ++v) targets[v] = v;
      std::shuffle(targets.begin(), targets.end(), rng_);
      targets.resize(1 + rng_() % std::min<uint32_t>(voqs_, 8));
      frames.push_back({static_cast<uint32_t>(1 + rng_() % 36), static_cast<uint32_t>(targets.size()), {}});
      for (uint32_t v : targets) queue[v].push_back(&frames.back());
    }
    if (with_timeouts_ && cam.suspended_count() > 0) {
      cam.tick(now);
      ++r.calls;
    }
    std::vector<uint32_t> eligible;
    bool waiting = false;
    for (uint32_t v = 0; v < voqs_; ++v) {
      if (queue[v].empty()) continue;
      waiting = true;
      ++r.calls;
      if (!cam.suspended(v)) eligible.push_back(v);
    }
    if (waiting && eligible.empty()) {
      r.deadlock = now;
      return r;
    }
    if (eligible.empty() || rng_() % 4 == 0) continue;
    const uint32_t v = eligible[rng_() % eligible.size()];  // the adversary picks who goes
    Frame& f = *queue[v].front();
    queue[v].pop_front();
    const bool last = f.started.size() + 1 == f.copies;
    cam.on_copy_forwarded(v, f.packets, last, f.started.data(), f.started.size(), now);
    f.started.push_back(v);
    cam.take_changes();
    ++r.calls;
    ++r.copies_started;
  }
  return r;
}

PacketCacheStimulus::PacketCacheStimulus(uint32_t seed, uint32_t entries, int ports)
    : rng_(seed), ports_(ports), units_(std::max<uint32_t>(4, 3 * entries / static_cast<uint32_t>(ports))) {
  params_.entries = entries;
  params_.header_lag_cycles = rng_() % 5;
  params_.background_free_min = rng_() % (entries / 2 + 1);
  params_.background_evicts_live = rng_() % 2 == 0;
}

PacketCacheStimulus::Result PacketCacheStimulus::run(PacketCache& cache, Cycle cycles) {
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
  Cycle now = 0;
  while (now < cycles) {
    // New packets, each in a buffer unit the cache holds nothing of.
    for (int port = 0; port < ports_; ++port) {
      if (rng_() % 3 != 0) continue;
      const uint32_t unit = rng_() % units_;
      ++r.calls;
      if (busy[port][unit] || cache.lookup(port, unit, now).state != PacketCache::State::miss) continue;
      busy[port][unit] = true;
      active.push_back({port, unit, static_cast<uint32_t>(1 + rng_() % 8), static_cast<uint32_t>(1 + rng_() % 12), false});
    }
    // A few copies move: a header on a hit (a mirror free), the payload on a
    // miss, or a copy dropped.
    for (int step = 0; step < 4 && !active.empty(); ++step) {
      const size_t i = rng_() % active.size();
      Packet& p = active[i];
      ++r.calls;
      const PacketCache::Lookup look = cache.lookup(p.port, p.unit, now);
      if (rng_() % 10 == 0) {
        cache.forget_copy(p.port, p.unit);
        --p.remaining;
      } else if (look.state == PacketCache::State::hit) {
        ++r.calls;
        if (cache.mirror_free_at(now) > now) continue;
        ++r.calls;
        if (cache.issue(p.port, p.unit, p.cycles, now) < 0) continue;
        ++r.hits;
        --p.remaining;
      } else if (look.state == PacketCache::State::miss) {
        ++r.calls;
        r.writes += cache.pass_through(p.port, p.unit, p.cycles, p.remaining - 1, !p.sent_one, now);
        p.sent_one = true;
        --p.remaining;
      }
      ++r.calls;
      if (p.remaining == 0) {
        busy[p.port][p.unit] = false;
        active[i] = active.back();
        active.pop_back();
      }
    }
    cache.end_cycle(now);
    r.evictions += cache.take_evictions().size();
    r.calls += 2;
    now += rng_() % 8 == 0 ? 1 + rng_() % 30 : 1;  // now and then a gap: reads complete, reclaim catches up
  }
  return r;
}

}  // namespace fabric::stimulus
