#include "model/leaf/ingress_unit.h"

#include <systemc>

#include "model/core/random.h"
#include "model/core/sim_time.h"
#include "model/invariants/invariant_broken.h"
#include "model/leaf/congestion_points.h"
#include "model/leaf/crossbar.h"
#include "model/leaf/multicast_engine.h"
#include "model/leaf/surrogate_loop.h"

namespace fabric {

IngressUnit::IngressUnit(const LeafLayout& layout, const LeafParams& params, const LeafParams& surrogate_params,
                         uint64_t seed, const Fdb& fdb, const McbcTable& mcbc, LeafLinks& links, const Wiring& wiring)
    : layout_(layout), params_(params), fdb_(fdb), mcbc_(mcbc), links_(links), wiring_(wiring) {
  for (int k = 0; k < layout.ports; ++k) {
    const PortId p = layout.port(k);
    ports_.emplace_back(p, k == layout.surrogate ? surrogate_params : params,
                        mix_seed(seed, 0x696e677265737300ULL + raw(p)));
  }
  remote_hold_.resize(layout.ports);
  pause_obeyed_.assign(static_cast<size_t>(layout.users), PauseObedience(params.pause_obeyed_within));
  if (params.qcn_ingress && params.culprit != CulpritPolicy::arrival)
    for (LeafIngress& in : ports_) in.track_culprits(params.culprit, params.culprit_probes);
}

void IngressUnit::on_frame(int k, Payload& payload) {
  const EthernetFrame f = frame_of(payload);
  payload.release();
  if (k != layout_.surrogate && params_.pause_obeyed_within > 0) {
    ++frames_checked_;
    const PauseObedience& pause = pause_obeyed_[k];
    if (!pause.allows(f.priority, now_ps()))
      break_invariant(invariant::kPauseObeyed, "port " + std::to_string(raw(layout_.port(k))), now_ps(),
                      "a frame of priority " + std::to_string(f.priority) + " (flow " + std::to_string(raw(f.flow)) +
                          ") admitted " + std::to_string((now_ps() - pause.stop_sent(f.priority)) / 1e3) +
                          " ns after the port sent STOP, later than anything sent before the PAUSE arrived could be (" +
                          std::to_string(pause.window() / 1e3) + " ns)");
  }
  if (ports_[k].holding(f.priority) || !admit(k, f)) hold(k, f);  // behind the frames of its priority held already
}

bool IngressUnit::admit(int k, const EthernetFrame& f) {
  const FdbEntry entry = fdb_.lookup(f.dst_mac);
  if (entry.kind == FdbEntry::multicast) return admit_multicast(k, f, entry.mid);
  if (entry.kind == FdbEntry::unknown) {
    drop_frame(k, f, DropReason::other, -1);
    return true;
  }
  const PortId target = entry.target;
  if (ports_[k].room_for(f, HeaderDemand{1, 0}) != RoomShortage::none) return false;
  LeafIngress::Admission a = ports_[k].admit(f, target, layout_.geometry.leaf_of(target));
  if (!a.voq) {
    drop_frame(k, f, a.reason, a.reason == DropReason::payload ? -1 : static_cast<int64_t>(raw(target)));
    return true;
  }
  if (a.drop_head_of) {
    drop_from_head(k, *a.drop_head_of);
    wiring_.crossbar.offer(k, *a.drop_head_of);
  }
  const Voq& q = ports_[k].voq(*a.voq);
  ports_[k].frame(q.waiting.back()).admitted = now_ps();
  request_tail(k, *a.voq);
  if (params_.qcn_ingress) wiring_.congestion.sample_ingress(k, f);
  check_pause(k, f.priority);
  return true;
}

void IngressUnit::on_handed_back(const EthernetFrame& f) {
  if (!admit_multicast(layout_.surrogate, f, f.mid))
    SC_REPORT_FATAL(layout_.name.c_str(), "the surrogate handed back a lossless frame its ingress has no room for");
}

RoomShortage IngressUnit::loop_shortage(const FrameHeader& handed_back) const {
  if (!params_.lossless.test(handed_back.priority)) return RoomShortage::none;  // its drops decide
  const int k = layout_.surrogate;
  const std::vector<PortId>* targets = mcbc_.lookup(layout_.port(k), handed_back.mid);
  return targets ? ports_[k].room_for(handed_back, demand_of(*targets)) : RoomShortage::none;
}

HeaderDemand IngressUnit::demand_of(const std::vector<PortId>& targets) const {
  HeaderDemand d;
  for (PortId t : targets) ++(layout_.geometry.is_surrogate(t) ? d.to_surrogates : d.to_destinations);
  return d;
}

bool IngressUnit::admit_multicast(int k, const EthernetFrame& arrived, Mid mid) {
  EthernetFrame f = arrived;
  f.mid = mid;
  const std::vector<PortId>* targets = mcbc_.lookup(layout_.port(k), mid);
  if (!targets) {
    drop_frame(k, f, DropReason::other, -1);
    return true;
  }
  LeafIngress& in = ports_[k];
  if (in.room_for(f, demand_of(*targets)) != RoomShortage::none) return false;
  wiring_.multicast.note_multicast();
  const std::optional<uint32_t> slot = in.store_payload(f, true);
  if (!slot) {
    drop_frame(k, f, DropReason::payload, -1);
    return true;
  }
  // Each copy's header gets its own decision, in the MCBC's order or, with
  // the random_order policy, in an order drawn for this frame.
  in.frame(*slot).admitted = now_ps();
  const std::array<uint8_t, kMaxLocalFanout> order = in.copy_order(targets->size());
  std::array<uint32_t, kMaxLocalFanout> dropped_from{};
  size_t drops_from_head = 0;
  for (size_t i = 0; i < targets->size(); ++i) {
    const PortId target = (*targets)[order[i]];
    const LeafIngress::CopyAdmission a =
        in.queue_copy(*slot, target, layout_.geometry.leaf_of(target), layout_.geometry.is_surrogate(target));
    if (!a.voq) {
      drop_frame(k, f, a.reason, raw(target));
      continue;
    }
    request_tail(k, *a.voq);
    if (a.drop_head_of) {
      drop_from_head(k, *a.drop_head_of);
      dropped_from[drops_from_head++] = *a.drop_head_of;
    }
  }
  const bool stored = in.seal(*slot);
  const bool surrogate = k == layout_.surrogate;
  if (stored && params_.qcn_ingress && !surrogate) wiring_.congestion.sample_ingress(k, f);  // one sample per frame
  if (stored && surrogate) wiring_.loop.check_pause(in.frame(*slot).pool_vl);
  // Only now, with every copy of this frame queued, may a VOQ whose head
  // changed start it (VOQ sync needs the frame's copy count).
  for (size_t i = 0; i < drops_from_head; ++i) wiring_.crossbar.offer(k, dropped_from[i]);
  check_pause(k, f.priority);
  return true;
}

void IngressUnit::request_tail(int k, uint32_t voq) {
  const Voq& q = ports_[k].voq(voq);
  const uint32_t copy = LeafIngress::tail_request(q);
  wiring_.control.send(ControlKind::request, layout_.port(k), q.target, q.vl, ports_[k].frame(q.waiting.back()).units,
                       1, {copy, copy});
}

void IngressUnit::hold(int k, const EthernetFrame& f) {
  ports_[k].hold(f);
  if (observer_) observer_->on_hold(k, f.flow, f.priority, now_ps());
  check_pause(k, f.priority);  // STOP now, whatever the thresholds
}

void IngressUnit::admit_held(int k, uint8_t priority) {
  LeafIngress& in = ports_[k];
  while (in.holding(priority)) {
    const EthernetFrame f = in.next_held(priority);
    if (!admit(k, f)) return;
    in.pop_held(priority);
  }
}

void IngressUnit::drop_frame(int k, const EthernetFrame& f, DropReason reason, int64_t dst) {
  // A frame for no known destination (DropReason::other) is not the class's to keep.
  if (reason != DropReason::other && ports_[k].is_lossless(f.priority))
    break_invariant(invariant::kLosslessDrop, "port " + std::to_string(raw(layout_.port(k))), now_ps(),
                    "a frame of lossless priority " + std::to_string(f.priority) + " (flow " +
                        std::to_string(raw(f.flow)) + ") dropped for " + to_string(reason));
  ++drops_;
  if (observer_) observer_->on_drop(k, f.frame, f.flow, dst, reason, now_ps());
}

void IngressUnit::drop_from_head(int k, uint32_t voq) {
  LeafIngress& in = ports_[k];
  const bool granted = in.head_granted(in.voq(voq));
  const uint32_t copy = in.voq(voq).head_request;
  const uint32_t slot = in.take_head(voq);
  const StoredFrame& f = in.frame(slot);
  ++drops_;
  if (observer_)
    observer_->on_drop(k, f.frame, f.flow, static_cast<int64_t>(raw(in.voq(voq).target)), DropReason::voq_head,
                       now_ps());
  if (f.multicast) wiring_.multicast.on_copy_dropped(k, voq, slot);
  const uint32_t units = f.units;  // before release_copy, which may free the frame
  in.release_copy(voq, slot);
  if (params_.dropped_credit == LeafParams::DroppedCredit::keep) {
    pay_owed(k, voq);  // the caller offers the VOQ again once the arriving frame is queued
    return;
  }
  // `withdraw`: as many units of the VOQ's requests are withdrawn (what the
  // arbiter had granted comes back as owed). `per_copy`: its grant in hand
  // goes back, a request not yet granted is withdrawn (if the arbiter granted
  // it meanwhile, on_grant returns the units).
  const Voq& q = in.voq(voq);
  const bool withdraw = params_.dropped_credit == LeafParams::DroppedCredit::withdraw || !granted;
  wiring_.control.send(ControlKind::cancel, layout_.port(k), q.target, q.vl, units, 1, {copy, copy}, withdraw);
}

uint64_t IngressUnit::invariants_checked() const {
  uint64_t n = frames_checked_;
  for (const LeafIngress& in : ports_) n += in.grants_checked();
  return n;
}

uint64_t IngressUnit::copies_on_surplus_credit() const {
  uint64_t n = 0;
  for (const LeafIngress& in : ports_) n += in.copies_on_surplus_credit();
  return n;
}

void IngressUnit::pay_owed(int k, uint32_t voq) {
  const uint32_t paid = ports_[k].settle_owed(voq);
  if (paid == 0) return;
  const Voq& q = ports_[k].voq(voq);
  wiring_.control.send(ControlKind::cancel, layout_.port(k), q.target, q.vl, paid, 1);
}

void IngressUnit::check_pause(int k, uint8_t priority) {
  if (k == layout_.surrogate) return;  // its PAUSE is internal: SurrogateLoop
  const std::optional<PauseChange> change = ports_[k].pause_change(priority);
  if (!change) return;
  Payload& m = wiring_.control.cna_frame(ControlKind::pause, layout_.port(k), change->priority);
  control_of(m).stop = change->stop;
  links_.user_tx(k).send_control(m);
  pause_obeyed_[k].on_pause_sent(change->priority, change->stop, now_ps());
  if (observer_) observer_->on_pause(k, change->priority, change->stop, change->headers, now_ps());
}

void IngressUnit::on_grant(const ControlMessage& grant) {
  const int k = layout_.geometry.local_index(grant.to);
  const std::optional<uint32_t> q = ports_[k].find_voq(grant.from, grant.vl);
  if (!q) SC_REPORT_FATAL(layout_.name.c_str(), "grant for a VOQ that does not exist");
  if (grant.withdraw) {  // units a drop withdrew that were granted already: owed back
    ports_[k].on_shortfall(*q, grant.units);
    pay_owed(k, *q);
    return;
  }
  const uint32_t gone = ports_[k].on_grant(*q, grant.units, grant.copies);
  const Voq& v = ports_[k].voq(*q);
  if (gone > 0) wiring_.control.send(ControlKind::cancel, layout_.port(k), v.target, v.vl, gone, 1);
  if (v.owed_units > 0) pay_owed(k, *q);  // spare credit goes back
  wiring_.crossbar.offer(k, *q);
}

void IngressUnit::on_ack(const ControlMessage& ack) {
  const int k = layout_.geometry.local_index(ack.to);
  const std::optional<uint32_t> q = ports_[k].find_voq(ack.from, ack.vl);
  if (!q) SC_REPORT_FATAL(layout_.name.c_str(), "ACK for a VOQ that does not exist");
  note_hold_times(k, *q, ack.units);
  ports_[k].on_ack_through(*q, ack.units);
  const int priority = priority_of(ack.vl);
  admit_held(k, static_cast<uint8_t>(priority));  // room freed: a frame waiting at the port goes first
  check_pause(k, static_cast<uint8_t>(priority));
  if (k == layout_.surrogate)  // the acknowledged frames may have arrived on any of the priority's VLs
    for (int level = 0; level < kVlsPerPriority; ++level)
      wiring_.loop.check_pause(Vl(priority * kVlsPerPriority + level));
}

void IngressUnit::note_hold_times(int k, uint32_t voq, uint32_t through) {
  LeafIngress& in = ports_[k];
  const Voq& q = in.voq(voq);
  if (layout_.is_local(q.target_leaf)) return;
  const Picos now = now_ps();
  for (uint32_t seq = LeafIngress::oldest_in_flight(q); seq < through && seq < q.next_copy_seq; ++seq) {
    remote_hold_[k].total += now - in.frame(*in.in_flight_slot(voq, seq)).admitted;
    ++remote_hold_[k].copies;
  }
}

uint64_t IngressUnit::copies_waiting() const {
  uint64_t n = 0;
  for (const LeafIngress& in : ports_) n += in.copies_waiting();
  return n;
}

bool IngressUnit::awaiting_acks() const {
  for (const LeafIngress& in : ports_)
    for (size_t v = 0; v < in.voq_count(); ++v)
      if (!in.voq(static_cast<uint32_t>(v)).in_flight.empty()) return true;
  return false;
}

void IngressUnit::describe_backlog(std::ostream& out, int& max_lines) const {
  for (int k = 0; k < layout_.ports && max_lines > 0; ++k) {
    const LeafIngress& in = ports_[k];
    for (uint8_t p = 0; p < kPriorities && max_lines > 0; ++p) {
      if (!in.holding(p)) continue;
      out << "  " << layout_.name << " port " << raw(layout_.port(k)) << ": lossless frames of priority " << int(p)
          << " wait at the port for room\n";
      --max_lines;
    }
    for (size_t v = 0; v < in.voq_count() && max_lines > 0; ++v) {
      const Voq& q = in.voq(static_cast<uint32_t>(v));
      if (q.waiting.empty() && q.in_flight.empty()) continue;
      out << "  " << layout_.name << " port " << raw(layout_.port(k)) << " VOQ(target " << raw(q.target) << ", VL "
          << int(raw(q.vl)) << "): " << q.waiting.size() << " waiting, " << q.in_flight.size()
          << " awaiting ACK, credit " << q.credits << " units"
          << (q.marks.parked      ? ", suspended by VOQ sync"
              : q.marks.streaming ? ", sending a multicast copy"
                                  : "")
          << "\n";
      --max_lines;
    }
  }
}

}  // namespace fabric
