// Leaf: multicast forwarding. A multicast frame is stored once and queued as
// one header per copy, each in its own VOQ with its own request, grant and
// ACK (fanout splitting, mechanism 1). A granted copy becomes a stream sent
// packet by packet: through the port's own interface when its packet is not
// in the packet cache (crossbar_step), or, on a hit, as a header the cache
// replicates through a free mirror (multicast_clock, one header per port per
// cycle, hits first). The clock ticks at 454 MHz only while a hit, a
// background eviction or a sync timeout is due.
#include "model/core/sim_time.h"
#include "model/leaf/copy_forwarded.h"
#include "model/leaf/leaf.h"
#include "model/leaf/segmentation.h"

namespace fabric {

namespace {
constexpr Cycle kNoCycle = ~Cycle{0};
}

void Leaf::on_multicast_frame(int k, const EthernetFrame& arrived, Mid mid) {
  EthernetFrame f = arrived;
  f.mid = mid;
  const std::vector<PortId>* targets = mcbc_.lookup(port(k), mid);
  if (!targets) {
    drop_frame(k, f, DropReason::other, -1);
    return;
  }
  multicast_seen_ = true;
  LeafIngress& in = ingress_[k];
  const std::optional<uint32_t> slot = in.store_payload(f, true);
  if (!slot) {
    drop_frame(k, f, DropReason::payload, -1);
    return;
  }
  // Each copy's header gets its own decision, in the MCBC's order or, with
  // the random_order policy, in an order drawn for this frame.
  const std::array<uint8_t, kMaxLocalFanout> order = in.copy_order(targets->size());
  std::array<uint32_t, kMaxLocalFanout> dropped_from{};
  size_t drops_from_head = 0;
  for (size_t i = 0; i < targets->size(); ++i) {
    const PortId target = (*targets)[order[i]];
    const LeafIngress::CopyAdmission a =
        in.queue_copy(*slot, target, geometry_.leaf_of(target), geometry_.is_surrogate(target));
    if (!a.voq) {
      drop_frame(k, f, a.reason, raw(target));
      continue;
    }
    send_control(ControlKind::request, port(k), target, in.voq(*a.voq).vl, in.frame(*slot).units, 1);
    if (a.drop_head_of) {
      drop_from_head(k, *a.drop_head_of);
      dropped_from[drops_from_head++] = *a.drop_head_of;
    }
  }
  const bool stored = in.seal(*slot);
  if (stored && params_.qcn_ingress && k != surrogate_) sample_ingress_cp(k, f);  // one sample per frame
  if (stored && k == surrogate_) check_loop_pause(in.frame(*slot).pool_vl);
  // Only now, with every copy of this frame queued, may a VOQ whose head
  // changed start it (VOQ sync needs the frame's copy count).
  for (size_t i = 0; i < drops_from_head; ++i) list_if_ready(k, dropped_from[i]);
  check_pause(k, f.priority);
}

void Leaf::drop_from_head(int k, uint32_t voq) {
  LeafIngress& in = ingress_[k];
  const uint32_t slot = in.take_head(voq);
  const StoredFrame& f = in.frame(slot);
  ++drops_;
  recorder_.drop({f.frame, f.flow, port(k), static_cast<int64_t>(raw(in.voq(voq).target)), DropReason::voq_head,
                  now_ps()});
  if (f.multicast) {
    count_as_forwarded(k, voq, slot);
    MulticastProgress& m = in.progress(slot);
    for (uint16_t segment = 0; segment < f.units; ++segment) {
      ++m.packet_sends[segment];  // one copy fewer will read it
      if (cache_) cache_->forget_copy(k, cache_unit(slot, segment));
    }
  }
  in.release_copy(voq, slot);
  pay_owed(k, voq);  // the caller lists the VOQ again once the arriving frame is queued
}

void Leaf::pay_owed(int k, uint32_t voq) {
  const uint32_t paid = ingress_[k].settle_owed(voq);
  if (paid == 0) return;
  const Voq& q = ingress_[k].voq(voq);
  send_control(ControlKind::cancel, port(k), q.target, q.vl, paid, 1);
}

void Leaf::start_stream(int k, uint32_t voq) {
  LeafIngress& in = ingress_[k];
  const auto [slot, copy_seq] = in.start_copy(voq);
  arm_retransmit(k, voq, copy_seq);
  in.voq(voq).streaming = true;
  const Picos now = now_ps();
  mc_[k].streams.push_back({voq, slot, copy_seq, 0, in.frame(slot).units, now});
  count_as_forwarded(k, voq, slot);
  inputs_[k].wakeup->at(std::max(now, inputs_[k].free_at));
  if (cache_) kick_multicast_clock(now);
}

// A copy starts (or, with drop-from-head, is dropped from its VOQ's head:
// the same for VOQ sync).
void Leaf::count_as_forwarded(int k, uint32_t voq, uint32_t slot) {
  count_copy_forwarded(mc_[k].sync.get(), ingress_[k].progress(slot), ingress_[k].frame(slot), voq,
                       cycle_of(now_ps()));
  if (mc_[k].sync) apply_sync_changes(k);
}

void Leaf::apply_sync_changes(int k) {
  VoqSyncCam& sync = *mc_[k].sync;
  const std::vector<VoqSyncCam::Change> changes = sync.take_changes();
  if (changes.empty()) return;
  const Picos now = now_ps();
  const std::string entity = "port" + std::to_string(raw(port(k)));
  for (const VoqSyncCam::Change& change : changes) {
    Voq& q = ingress_[k].voq(change.voq);
    recorder_.event(now, change.suspended ? EventKind::sync_suspend : EventKind::sync_resume, entity, -1,
                    raw(q.target));
    if (!change.suspended && q.parked) {
      q.parked = false;
      list_if_ready(k, change.voq);
    }
  }
  if (sync.suspended_count() > 0) kick_multicast_clock(static_cast<Picos>(sync.next_timeout()) * cycle_ps_);
}

int Leaf::payload_stream(int k, Picos now) const {
  const PortMulticast& pm = mc_[k];
  const size_t n = pm.streams.size();
  const Cycle c = cycle_of(now);
  for (size_t i = 0; i < n; ++i) {
    const size_t s = (pm.payload_turn + i) % n;
    const CopyStream& st = pm.streams[s];
    if (st.busy_until > now) continue;
    if (cache_ && cache_->lookup(k, cache_unit(st.slot, st.next_segment), c).state != MulticastCache::State::miss)
      continue;  // a hit, or being written: the header path takes it
    return static_cast<int>(s);
  }
  return -1;
}

uint32_t Leaf::emit_stream_payload(int k, int s) {
  LeafIngress& in = ingress_[k];
  const CopyStream st = mc_[k].streams[s];
  const Voq& q = in.voq(st.voq);
  int uplink;
  if (!route(q, uplink)) {
    inputs_[k].blocked = true;
    ++blocked_inputs_;
    return 0;
  }
  const StoredFrame& f = in.frame(st.slot);
  const uint32_t bytes = segment_bytes(f.bytes, params_.packet_bytes, st.next_segment);
  const uint32_t cycles = crossbar_cycles(bytes, params_.crossbar_bytes_per_cycle);
  const Picos now = now_ps();
  const Picos transfer = cycle_ps_ * cycles;
  if (cache_) {
    uint8_t& sent = in.progress(st.slot).packet_sends[st.next_segment];
    const uint32_t copies_to_come = f.copies - sent - 1u;
    if (cache_->pass_through(k, cache_unit(st.slot, st.next_segment), cycles, copies_to_come, sent == 0, cycle_of(now)))
      kick_multicast_clock(now + cycle_ps_ * params_.cache_header_lag_cycles);
    ++sent;
  }
  inputs_[k].free_at = now + transfer;
  launch_packet(k, q, f, st.next_segment, st.copy_seq, uplink, transfer);
  mc_[k].payload_turn = static_cast<size_t>(s) + 1;
  advance_stream(k, s, now + transfer);
  return bytes;
}

// The port's header slot this cycle: the first stream in turn whose next
// packet hits gets a mirror. Lowers `next` to the cycle work is due again.
bool Leaf::issue_hit(int k, Cycle c, Cycle& next) {
  PortMulticast& pm = mc_[k];
  const Picos now = now_ps();
  const size_t n = pm.streams.size();
  for (size_t i = 0; i < n; ++i) {
    const size_t s = (pm.header_turn + i) % n;
    const CopyStream st = pm.streams[s];
    if (st.busy_until > now) {
      next = std::min(next, cycle_of(st.busy_until + cycle_ps_ - 1));
      continue;
    }
    const uint32_t unit = cache_unit(st.slot, st.next_segment);
    const MulticastCache::Lookup look = cache_->lookup(k, unit, c);
    if (look.state == MulticastCache::State::miss) continue;  // the interface's work
    if (look.state == MulticastCache::State::filling) {
      next = std::min(next, look.ready_at);
      continue;
    }
    const Cycle mirror_free = cache_->mirror_free_at(c);
    if (mirror_free > c) {
      next = std::min(next, mirror_free);
      return false;
    }
    LeafIngress& in = ingress_[k];
    const Voq& q = in.voq(st.voq);
    int uplink;
    if (!route(q, uplink)) {
      mc_blocked_ = true;  // woken when an uplink queue has room
      continue;
    }
    const StoredFrame& f = in.frame(st.slot);
    const uint32_t cycles = crossbar_cycles(segment_bytes(f.bytes, params_.packet_bytes, st.next_segment),
                                            params_.crossbar_bytes_per_cycle);
    cache_->issue(k, unit, cycles, c);
    ++in.progress(st.slot).packet_sends[st.next_segment];
    launch_packet(k, q, f, st.next_segment, st.copy_seq, uplink, cycle_ps_ * cycles);
    pm.header_turn = s + 1;
    advance_stream(k, static_cast<int>(s), now + cycle_ps_ * cycles);
    next = std::min(next, c + 1);
    return true;
  }
  return false;
}

void Leaf::advance_stream(int k, int s, Picos packet_done) {
  std::vector<CopyStream>& streams = mc_[k].streams;
  CopyStream& st = streams[s];
  st.busy_until = packet_done;
  if (++st.next_segment < st.segments) return;
  const uint32_t voq = st.voq;
  streams.erase(streams.begin() + s);
  ingress_[k].voq(voq).streaming = false;
  list_if_ready(k, voq);
}

void Leaf::multicast_clock() {
  const Picos now = now_ps();
  const Cycle c = cycle_of(now);
  Cycle next = kNoCycle;
  for (int i = 0; i < ports_; ++i) {
    const int k = (mc_first_port_ + i) % ports_;
    PortMulticast& pm = mc_[k];
    if (pm.sync && pm.sync->suspended_count() > 0) {
      pm.sync->tick(c);
      apply_sync_changes(k);
      next = std::min(next, pm.sync->next_timeout());
    }
    if (!cache_ || pm.streams.empty()) continue;
    issue_hit(k, c, next);
    CrossbarInput& input = inputs_[k];
    if (!input.sending && !input.blocked && input.free_at <= now && payload_stream(k, now) >= 0)
      input.wakeup->at(now);
  }
  mc_first_port_ = (mc_first_port_ + 1) % ports_;
  if (cache_) {
    cache_->end_cycle(c);
    cache_->take_evictions();  // the tags are gone: the next copies miss (counted per port)
    if (cache_->background_work()) next = std::min(next, c + 1);
  }
  if (next != kNoCycle) mc_clock_->at(static_cast<Picos>(std::max(next, c + 1)) * cycle_ps_);
}

void Leaf::kick_multicast_clock(Picos at) {
  mc_clock_->at(static_cast<Picos>(cycle_of(at + cycle_ps_ - 1)) * cycle_ps_);
}

void Leaf::record_cache_counters(Picos t) {
  if (!cache_ || !multicast_seen_) return;
  recorder_.sample(t, "leaf" + std::to_string(raw(id_)), "cache_entries", cache_->occupancy());
  for (int k = 0; k < ports_; ++k) {
    const MulticastCache::PortStats& s = cache_->stats(k);
    if (s.writes + s.hits + s.misses + s.premature_evictions == 0) continue;
    const std::string entity = "port" + std::to_string(raw(port(k)));
    recorder_.sample(t, entity, "cache_hits", static_cast<double>(s.hits));
    recorder_.sample(t, entity, "cache_misses", static_cast<double>(s.misses));
    recorder_.sample(t, entity, "cache_premature_evictions", static_cast<double>(s.premature_evictions));
  }
}

void Leaf::finish(Picos end) { record_cache_counters(end); }

}  // namespace fabric
