#include "model/leaf/multicast_engine.h"

#include <algorithm>
#include <sstream>

#include "model/core/sim_time.h"
#include "model/invariants/invariant_broken.h"
#include "model/leaf/copy_forwarded.h"
#include "model/leaf/crossbar.h"
#include "model/leaf/fabric_injection.h"
#include "model/leaf/ingress_unit.h"
#include "model/leaf/retransmit_unit.h"
#include "model/leaf/segmentation.h"

namespace fabric {

namespace {
constexpr Cycle kNoCycle = ~Cycle{0};
}

MulticastEngine::MulticastEngine(const LeafLayout& layout, const LeafParams& params, EventQueue& events,
                                 const Wiring& wiring)
    : layout_(layout), params_(params), wiring_(wiring), ports_(layout.ports) {
  if (params.sync_enabled) {
    SyncCam::Params sp;
    sp.entries = params.sync_entries;
    sp.shi = params.sync_shi;
    sp.slow = params.sync_slow;
    sp.timeout_cycles = static_cast<Cycle>((to_ps(params.sync_timeout) + layout.cycle_ps - 1) / layout.cycle_ps);
    for (int k = 0; k < layout.ports; ++k) {
      const std::string block = "port" + std::to_string(k) + ".sync";
      ports_[k].sync = make_sync_cam(params.sync_impl, sp, layout.name + " " + block, trace_window(block));
    }
  }
  if (params.cache_enabled) {
    PacketCache::Params cp;
    cp.entries = params.cache_entries;
    cp.mirrors = params.cache_mirrors;
    cp.header_lag_cycles = params.cache_header_lag_cycles;
    cp.background_free_min = params.cache_background_free_min;
    cp.background_evicts_live = params.cache_background_evicts_live;
    cache_ = make_packet_cache(params.cache_impl, cp, layout.ports, layout.name + " cache", trace_window("cache"));
  }
  clock_ = std::make_unique<Wakeup>(events, [this] { clock(); });
}

rtl::TraceWindow MulticastEngine::trace_window(const std::string& block) const {
  rtl::TraceWindow w;
  if (params_.rtl_trace.empty() || static_cast<int>(raw(layout_.id)) != params_.rtl_trace_leaf) return w;
  const std::string& path = params_.rtl_trace;  // FILE.fst -> FILE.<block>.fst
  w.path = path.substr(0, path.size() - 4) + "." + block + ".fst";
  w.from = layout_.cycle_of(params_.rtl_trace_from_ps);
  w.until = layout_.cycle_of(params_.rtl_trace_until_ps);
  w.cycle_ps = static_cast<uint64_t>(layout_.cycle_ps);
  return w;
}

void MulticastEngine::start_stream(int k, uint32_t voq) {
  LeafIngress& in = wiring_.ingress.port(k);
  const auto [slot, copy_seq] = in.start_copy(voq, now_ps());
  wiring_.retransmit.arm(k, voq, copy_seq);
  in.voq(voq).marks.streaming = true;
  const Picos now = now_ps();
  ports_[k].streams.start({voq, slot, copy_seq, 0, in.frame(slot).units, now});
  count_as_forwarded(k, voq, slot);
  wiring_.crossbar.wake_when_free(k);
  if (cache_) kick_clock(now);
}

void MulticastEngine::on_copy_dropped(int k, uint32_t voq, uint32_t slot) {
  count_as_forwarded(k, voq, slot);
  LeafIngress& in = wiring_.ingress.port(k);
  MulticastProgress& m = in.progress(slot);
  for (uint16_t segment = 0; segment < in.frame(slot).units; ++segment) {
    ++m.packet_sends[segment];  // one copy fewer will read it
    if (cache_) cache_->forget_copy(k, cache_unit(slot, segment));
  }
}

void MulticastEngine::count_as_forwarded(int k, uint32_t voq, uint32_t slot) {
  LeafIngress& in = wiring_.ingress.port(k);
  if (cache_ && in.progress(slot).copies_started == 0) check_no_stale_entries(k, slot);
  count_copy_forwarded(ports_[k].sync.get(), in.progress(slot), in.frame(slot), voq, layout_.cycle_of(now_ps()));
  if (ports_[k].sync) apply_sync_changes(k);
}

// A frame's packets are written only once one of its copies has started. A
// tag found before that belongs to an earlier frame in the same buffer slot:
// its copies were miscounted, and its entry would serve the wrong packet.
void MulticastEngine::check_no_stale_entries(int k, uint32_t slot) {
  const uint16_t units = wiring_.ingress.port(k).frame(slot).units;
  const Cycle c = layout_.cycle_of(now_ps());
  for (uint16_t segment = 0; segment < units; ++segment) {
    if (cache_->lookup(k, cache_unit(slot, segment), c).state == PacketCache::State::miss) continue;
    const std::string state = "port " + std::to_string(k) + " slot " + std::to_string(slot) + " segment " +
                              std::to_string(segment) + " is still cached from the slot's previous frame";
    SC_REPORT_FATAL(layout_.name.c_str(), state.c_str());
  }
}

void MulticastEngine::apply_sync_changes(int k) {
  SyncCam& sync = *ports_[k].sync;
  const std::vector<SyncCam::Change> changes = sync.take_changes();
  if (changes.empty()) return;
  const Picos now = now_ps();
  LeafIngress& in = wiring_.ingress.port(k);
  for (const SyncCam::Change& change : changes) {
    Voq& q = in.voq(change.voq);
    if (observer_) observer_->on_sync(k, q.target, change.suspended, now);
    if (!change.suspended && q.marks.parked) {
      q.marks.parked = false;
      wiring_.crossbar.offer(k, change.voq);
    }
  }
  if (sync.suspended_count() > 0) kick_clock(static_cast<Picos>(sync.next_timeout()) * layout_.cycle_ps);
}

int MulticastEngine::payload_stream(int k, Picos now) const {
  const CopyStreams& streams = ports_[k].streams;
  const size_t n = streams.size();
  const Cycle c = layout_.cycle_of(now);
  for (size_t i = 0; i < n; ++i) {
    const size_t s = streams.in_payload_turn(i);
    const CopyStream& st = streams[s];
    if (st.busy_until > now) continue;
    if (cache_ && cache_->lookup(k, cache_unit(st.slot, st.next_segment), c).state != PacketCache::State::miss)
      continue;  // a hit, or being written: the header path takes it
    return static_cast<int>(s);
  }
  return -1;
}

void MulticastEngine::on_payload_packet(int k, const CopyStream& st, uint32_t cycles, Picos now) {
  if (!cache_) return;
  LeafIngress& in = wiring_.ingress.port(k);
  // The entry's readers: the frame's copies that have neither sent this
  // packet nor been dropped, less this one. A copy dropped later counts
  // itself out (forget_copy); a retransmitted copy never reads the cache.
  uint8_t& sent = in.progress(st.slot).packet_sends[st.next_segment];
  const uint32_t copies_to_come = in.frame(st.slot).copies - sent - 1u;
  if (cache_->pass_through(k, cache_unit(st.slot, st.next_segment), cycles, copies_to_come, sent == 0,
                           layout_.cycle_of(now)))
    kick_clock(now + layout_.cycle_ps * params_.cache_header_lag_cycles);
  ++sent;
}

void MulticastEngine::payload_packet_sent(int k, int s, Picos packet_done) {
  ports_[k].streams.served_payload(static_cast<size_t>(s));
  if (!advance_stream(k, s, packet_done) || !cache_) return;
  // The stream's next packet may already be in the cache, written by an
  // earlier copy: then the header path takes it, and the input will not
  // (payload_stream skips it), so the clock must look once this packet is
  // done. Without this wake the stream waited for whatever woke the clock
  // next, and forever when nothing did (a 16 MB spread-tree all-gather
  // stalled so).
  const CopyStream& st = ports_[k].streams[static_cast<size_t>(s)];
  if (cache_->lookup(k, cache_unit(st.slot, st.next_segment), layout_.cycle_of(now_ps())).state !=
      PacketCache::State::miss)
    kick_clock(packet_done);
}

// The port's header slot this cycle: the first stream in turn whose next
// packet hits gets a mirror. Lowers `next` to the cycle work is due again.
bool MulticastEngine::issue_hit(int k, Cycle c, Cycle& next) {
  CopyStreams& streams = ports_[k].streams;
  const Picos now = now_ps();
  const Picos cycle_ps = layout_.cycle_ps;
  const size_t n = streams.size();
  for (size_t i = 0; i < n; ++i) {
    const size_t s = streams.in_header_turn(i);
    const CopyStream st = streams[s];
    if (st.busy_until > now) {
      next = std::min(next, layout_.cycle_of(st.busy_until + cycle_ps - 1));
      continue;
    }
    const uint32_t unit = cache_unit(st.slot, st.next_segment);
    const PacketCache::Lookup look = cache_->lookup(k, unit, c);
    if (look.state == PacketCache::State::miss) continue;  // the interface's work
    if (look.state == PacketCache::State::filling) {
      next = std::min(next, look.ready_at);
      continue;
    }
    const Cycle mirror_free = cache_->mirror_free_at(c);
    if (mirror_free > c) {
      next = std::min(next, mirror_free);
      return false;
    }
    LeafIngress& in = wiring_.ingress.port(k);
    const Voq& q = in.voq(st.voq);
    int uplink;
    if (!wiring_.injection.route(q, uplink)) {
      hit_blocked_ = true;  // woken when an uplink queue has room
      continue;
    }
    const StoredFrame& f = in.frame(st.slot);
    const uint32_t cycles = crossbar_cycles(segment_bytes(f.bytes, params_.packet_bytes, st.next_segment),
                                            params_.crossbar_bytes_per_cycle);
    cache_->issue(k, unit, cycles, c);
    ++in.progress(st.slot).packet_sends[st.next_segment];
    wiring_.injection.launch(k, q, f, st.next_segment, st.copy_seq, uplink, cycle_ps * cycles);
    streams.served_header(s);
    advance_stream(k, static_cast<int>(s), now + cycle_ps * cycles);
    next = std::min(next, c + 1);
    return true;
  }
  return false;
}

bool MulticastEngine::advance_stream(int k, int s, Picos packet_done) {
  const std::optional<uint32_t> done = ports_[k].streams.advance(static_cast<size_t>(s), packet_done);
  if (!done) return true;
  wiring_.ingress.port(k).voq(*done).marks.streaming = false;
  wiring_.crossbar.offer(k, *done);
  return false;
}

void MulticastEngine::clock() {
  const Picos now = now_ps();
  const Cycle c = layout_.cycle_of(now);
  Cycle next = kNoCycle;
  for (int i = 0; i < layout_.ports; ++i) {
    const int k = (first_port_ + i) % layout_.ports;
    Port& pm = ports_[k];
    if (pm.sync && pm.sync->suspended_count() > 0) {
      pm.sync->tick(c);
      apply_sync_changes(k);
      next = std::min(next, pm.sync->next_timeout());
    }
    if (!cache_ || pm.streams.empty()) continue;
    issue_hit(k, c, next);
    if (wiring_.crossbar.idle(k, now) && payload_stream(k, now) >= 0) wiring_.crossbar.wake(k, now);
  }
  first_port_ = (first_port_ + 1) % layout_.ports;
  if (cache_) {
    cache_->end_cycle(c);
    // A live entry evicted (by a write, which kicks this clock, or in the
    // background): the owner's tag is gone, its next copy misses, and the
    // port loop above wakes the owner's input next cycle when it is idle.
    if (!cache_->take_evictions().empty() || cache_->background_work()) next = std::min(next, c + 1);
  }
  if (next != kNoCycle) clock_->at(static_cast<Picos>(std::max(next, c + 1)) * layout_.cycle_ps);
}

void MulticastEngine::kick_clock(Picos at) {
  clock_->at(static_cast<Picos>(layout_.cycle_of(at + layout_.cycle_ps - 1)) * layout_.cycle_ps);
}

void MulticastEngine::on_uplink_room() {
  if (!hit_blocked_) return;
  hit_blocked_ = false;
  kick_clock(now_ps());
}

void MulticastEngine::check_a_wake_is_coming(int k) {
  // The C++ cache only: a query of an RTL block is work the block reports.
  if (!cache_ || hit_blocked_ || params_.cache_impl != BlockImpl::model) return;
  ++wakes_checked_;
  // The cycle each stream can go next, at the earliest: once its packet
  // before has crossed, its next one is written and a mirror is free (the
  // cache as it is now: a miss becomes a hit only by a write, which wakes
  // the clock itself).
  const Picos now = now_ps();
  const Cycle c = layout_.cycle_of(now + layout_.cycle_ps - 1);
  const Cycle mirror_free = cache_->mirror_free_at(c);
  Cycle needed = kNoCycle;
  size_t first = 0;
  const CopyStreams& streams = ports_[k].streams;
  for (size_t s = 0; s < streams.size(); ++s) {
    const CopyStream& st = streams[s];
    const PacketCache::Lookup look = cache_->lookup(k, cache_unit(st.slot, st.next_segment), c);
    if (look.state == PacketCache::State::miss) continue;  // the input's, once the packet before has crossed
    Cycle at = std::max(c, layout_.cycle_of(st.busy_until + layout_.cycle_ps - 1));
    at = std::max(at, look.state == PacketCache::State::filling ? look.ready_at : mirror_free);
    if (at < needed) needed = at, first = s;
  }
  // One cycle of slack: the clock may have served this cycle already.
  if (needed == kNoCycle || (clock_->pending() && clock_->due() <= static_cast<Picos>(needed + 1) * layout_.cycle_ps))
    return;
  std::ostringstream what;
  describe_stream(what, k, first);
  break_invariant(
      invariant::kWakeComing, layout_.name + " port " + std::to_string(raw(layout_.port(k))), now,
      "the input can move none of its " + std::to_string(streams.size()) +
          " multicast copies, one could go by the cache at cycle " + std::to_string(needed) +
          (clock_->pending() ? " but the cache clock is due at cycle " + std::to_string(layout_.cycle_of(clock_->due()))
                             : " but the cache clock is stopped") +
          "; that copy:" + what.str());
}

void MulticastEngine::describe_streams(std::ostream& out, int& max_lines) const {
  for (int k = 0; k < layout_.ports && max_lines > 0; ++k) {
    const CopyStreams& streams = ports_[k].streams;
    for (size_t s = 0; s < streams.size() && max_lines > 0; ++s, --max_lines) {
      out << "  " << layout_.name << " port " << raw(layout_.port(k));
      describe_stream(out, k, s);
      out << "\n";
    }
  }
}

void MulticastEngine::describe_stream(std::ostream& out, int k, size_t s) const {
  const Picos now = now_ps();
  const CopyStream& st = ports_[k].streams[s];
  const Voq& q = wiring_.ingress.port(k).voq(st.voq);
  out << " multicast copy to " << raw(q.target) << ": packet " << st.next_segment << " of " << st.segments << " next";
  if (st.busy_until > now) out << ", the one before still crossing";
  if (cache_) {
    const PacketCache::Lookup look = cache_->lookup(k, cache_unit(st.slot, st.next_segment), layout_.cycle_of(now));
    out << (look.state == PacketCache::State::miss  ? ", not in the cache"
            : look.state == PacketCache::State::hit ? ", in the cache"
                                                    : ", being written to the cache");
    out << (clock_->pending() ? ", cache clock due" : ", cache clock stopped");
  }
  out << (wiring_.crossbar.idle(k, now) ? ", crossbar input idle" : ", crossbar input busy")
      << (hit_blocked_ ? ", a cache hit waits for an uplink queue" : "");
}

RtlActivity MulticastEngine::sync_rtl_activity() const {
  RtlActivity a;
  for (const Port& p : ports_)
    if (p.sync) a += p.sync->rtl_activity();
  return a;
}

RtlActivity MulticastEngine::cache_rtl_activity() const { return cache_ ? cache_->rtl_activity() : RtlActivity{}; }

void MulticastEngine::finish() {
  for (Port& p : ports_)
    if (p.sync) p.sync->finish();
  if (cache_) cache_->finish();
}

}  // namespace fabric
