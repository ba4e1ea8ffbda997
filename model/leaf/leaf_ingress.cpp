#include "model/leaf/leaf_ingress.h"

#include <algorithm>
#include <stdexcept>

#include "model/invariants/invariant_broken.h"
#include "model/leaf/segmentation.h"

namespace fabric {

LeafIngress::LeafIngress(PortId port, const LeafParams& params, uint64_t seed)
    : port_(port),
      params_(params),
      lossy_pool_(params.lossy_pool_units),
      admission_(params.header_admission),
      voq_drop_(VoqDropPolicy::make(params.voq_drop, params.voq_threshold_units)),
      rng_(seed) {
  for (auto& pool : lossless_pool_) pool = BufferPool(params.lossless_pool_units);
  for (int vl = 0; vl < kVls; ++vl) {
    const bool private_pool = lossless(static_cast<uint8_t>(priority_of(Vl(vl))));
    header_pool_[vl] = BufferPool(private_pool ? params.header_pool_lossless : params.header_pool_lossy);
  }
}

LeafIngress::Admission LeafIngress::admit(const EthernetFrame& f, PortId target, LeafId target_leaf) {
  const std::optional<uint32_t> slot = store_payload(f, false);
  if (!slot) return {std::nullopt, DropReason::payload, std::nullopt};
  const CopyAdmission a = queue_copy(*slot, target, target_leaf);
  seal(*slot);
  return {a.voq, a.reason, a.drop_head_of};
}

std::optional<uint32_t> LeafIngress::store_payload(const EthernetFrame& f, bool multicast) {
  const uint16_t units = segment_count(f.bytes, params_.packet_bytes);
  const Vl arrival = arrival_vl(f);
  BufferPool& pool = payload_pool(f.priority, arrival);
  if (!lossless(f.priority) && pool.used() >= params_.lossy_threshold_units) return std::nullopt;
  if (!pool.try_take(units)) {
    if (lossless(f.priority))
      throw std::logic_error("leaf ingress: a lossless frame admitted without room for its payload");
    return std::nullopt;
  }
  const uint32_t slot = store(f, units, multicast);
  frames_[slot].pool_vl = arrival;
  if (culprits_) culprits_->on_store(slot, f.flow, f.priority, units);
  if (multicast) {
    if (progress_.size() < frames_.size()) progress_.resize(frames_.size());
    MulticastProgress& m = progress_[slot];
    m.copies_started = 0;
    m.packet_sends.assign(units, 0);
  }
  return slot;
}

LeafIngress::CopyAdmission LeafIngress::queue_copy(uint32_t slot, PortId target, LeafId target_leaf,
                                                   bool to_surrogate) {
  StoredFrame& s = frames_[slot];
  const Vl vl = copy_vl(s, to_surrogate);
  if (to_surrogate && s.levels >= kVlsPerPriority)
    throw std::logic_error("leaf ingress: a copy towards a surrogate below the deepest level");
  BufferPool& headers = header_pool_[raw(vl)];
  const bool lossy = !lossless(s.priority);
  if (!lossy && !headers.can_take(1))
    throw std::logic_error("leaf ingress: a lossless copy admitted without room for its header");
  if (lossy && lossy_headers_held_ >= params_.header_memory)
    return {std::nullopt, DropReason::header_memory, std::nullopt};
  if (!headers.can_take(1)) return {std::nullopt, DropReason::header_pool, std::nullopt};
  if (lossy && !admission_.accept(headers.used(), rng_)) {
    const bool red = params_.header_admission.policy == HeaderAdmission::Policy::red;
    return {std::nullopt, red ? DropReason::header_red : DropReason::header_pool, std::nullopt};
  }
  const uint32_t q = voq_index(target, vl, target_leaf);
  std::optional<uint32_t> drop_head_of;
  if (lossy) {
    switch (voq_drop_->on_arrival(voqs_[q].waiting_units)) {
      case VoqDropDecision::admit:
        break;
      case VoqDropDecision::drop_arriving:
        return {std::nullopt, DropReason::voq_tail, std::nullopt};
      case VoqDropDecision::drop_head:
        drop_head_of = q;
        break;
    }
  }
  headers.try_take(1);
  if (lossy) ++lossy_headers_held_;
  ++s.copies;
  ++s.copies_left;
  Voq& v = voqs_[q];
  v.waiting.push_back(slot);
  if (per_copy()) granted_[q].push_back(false);
  v.waiting_units += s.units;
  return {q, DropReason::other, drop_head_of};
}

uint32_t LeafIngress::take_head(uint32_t voq_index) {
  Voq& q = voqs_[voq_index];
  if (q.waiting.empty()) throw std::logic_error("leaf ingress: dropping the head of an empty VOQ");
  const uint32_t slot = q.waiting.front();
  if (per_copy()) {
    if (granted_[voq_index].front()) q.credits -= frames_[slot].units;  // its grant in hand: the caller returns it
    granted_[voq_index].pop_front();
  } else if (params_.dropped_credit == LeafParams::DroppedCredit::keep) {
    q.owed_units += frames_[slot].units;
  }
  q.waiting.pop_front();
  ++q.head_request;
  q.waiting_units -= frames_[slot].units;
  return slot;
}

void LeafIngress::release_copy(uint32_t voq_index, uint32_t slot) {
  const Vl vl = voqs_[voq_index].vl;
  header_pool_[raw(vl)].give_back(1);
  if (!lossless(static_cast<uint8_t>(priority_of(vl)))) --lossy_headers_held_;
  if (--frames_[slot].copies_left == 0) free_frame(slot);
}

uint32_t LeafIngress::settle_owed(uint32_t voq_index) {
  Voq& q = voqs_[voq_index];
  // With `keep` a grant is for units, not for a copy: the one that arrives
  // serves the VOQ's head, whichever copy that now is, and only credit
  // beyond what the waiting copies need is surplus. Otherwise what is owed
  // is what the arbiter had granted of the units a drop withdrew: all of it
  // goes back.
  const uint32_t spare = params_.dropped_credit != LeafParams::DroppedCredit::keep ? q.credits
                         : q.credits > q.waiting_units                             ? q.credits - q.waiting_units
                                                                                   : 0;
  const uint32_t paid = std::min(q.owed_units, spare);
  q.owed_units -= paid;
  q.credits -= paid;
  return paid;
}

bool LeafIngress::seal(uint32_t slot) {
  if (frames_[slot].copies > 0) return true;
  free_frame(slot);
  return false;
}

uint32_t LeafIngress::store(const EthernetFrame& f, uint16_t units, bool multicast) {
  uint32_t slot;
  if (free_slots_.empty()) {
    slot = static_cast<uint32_t>(frames_.size());
    frames_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  StoredFrame& s = frames_[slot];
  static_cast<FrameHeader&>(s) = f;
  s.arrival = f.arrival;
  s.units = units;
  s.copies = 0;
  s.copies_left = 0;
  s.multicast = multicast;
  return slot;
}

uint32_t LeafIngress::voq_index(PortId target, Vl vl, LeafId target_leaf) {
  if (std::optional<uint32_t> found = find_voq(target, vl)) return *found;
  const size_t t = raw(target);
  if (t >= first_of_target_.size()) first_of_target_.resize(t + 1, 0);
  voqs_.emplace_back();
  if (per_copy()) granted_.emplace_back();
  Voq& q = voqs_.back();
  q.target = target;
  q.vl = vl;
  q.target_leaf = target_leaf;
  q.next_of_target = first_of_target_[t];
  first_of_target_[t] = static_cast<uint32_t>(voqs_.size());
  return first_of_target_[t] - 1;
}

std::optional<uint32_t> LeafIngress::find_voq(PortId target, Vl vl) const {
  if (last_found_ < voqs_.size() && voqs_[last_found_].target == target && voqs_[last_found_].vl == vl)
    return last_found_;
  const size_t t = raw(target);
  if (t >= first_of_target_.size()) return std::nullopt;
  for (uint32_t v = first_of_target_[t]; v != 0; v = voqs_[v - 1].next_of_target)
    if (voqs_[v - 1].vl == vl) return last_found_ = v - 1;
  return std::nullopt;
}

uint32_t LeafIngress::head_units(const Voq& q) const {
  return q.waiting.empty() ? 0 : frames_[q.waiting.front()].units;
}

bool LeafIngress::head_covered(const Voq& q) const {
  if (per_copy()) return head_granted(q);
  return !q.waiting.empty() && frames_[q.waiting.front()].units <= q.credits;
}

std::pair<uint32_t, uint32_t> LeafIngress::start_copy(uint32_t voq_index, Picos now) {
  Voq& q = voqs_[voq_index];
  if (q.waiting.empty()) throw std::logic_error("leaf ingress: sending a copy of an empty VOQ");
  const uint32_t slot = q.waiting.front();
  const auto copy_text = [&] {
    return "copy " + std::to_string(q.head_request) + " of " + std::to_string(frames_[slot].units) + " units to port " +
           std::to_string(raw(q.target));
  };
  ++grants_checked_;
  if (!head_covered(q))
    break_invariant(invariant::kOwnGrant, port_name(), now,
                    copy_text() + " sent without " +
                        (per_copy() ? std::string("its own grant (requests and grants per copy)")
                                    : "credit: " + std::to_string(q.credits) + " units"));
  if (!per_copy() && q.owed_units > 0 && q.credits < q.owed_units + frames_[slot].units) {
    // The units owed back come first (settle_owed): a copy sent on the rest
    // of the credit would need more than there is, so it rides on surplus.
    if (params_.dropped_credit == LeafParams::DroppedCredit::withdraw)
      break_invariant(invariant::kSurplusCredit, port_name(), now,
                      copy_text() + " sent with " + std::to_string(q.credits) + " units of credit, of which " +
                          std::to_string(q.owed_units) + " are owed back");
    ++copies_on_surplus_credit_;
  }
  q.waiting.pop_front();
  if (per_copy()) granted_[voq_index].pop_front();
  ++q.head_request;
  q.waiting_units -= frames_[slot].units;
  q.credits -= frames_[slot].units;
  q.in_flight.push_back(slot);
  return {slot, q.next_copy_seq++};
}

uint32_t LeafIngress::on_grant(uint32_t voq_index, uint32_t units, CopyRange copies) {
  Voq& q = voqs_[voq_index];
  if (!per_copy()) {
    q.credits += units;
    return 0;
  }
  // The run's copies still waiting take their units; the others are gone.
  uint32_t live = 0;
  const uint32_t from = std::max(copies.first, q.head_request);
  const uint32_t to = std::min<uint64_t>(copies.last, uint64_t{q.head_request} + q.waiting.size() - 1);
  for (uint32_t n = from; !q.waiting.empty() && n <= to; ++n) {
    const size_t i = n - q.head_request;
    if (granted_[voq_index][i]) throw std::logic_error("leaf ingress: a copy granted twice");
    granted_[voq_index][i] = true;
    live += frames_[q.waiting[i]].units;
  }
  if (live > units) throw std::logic_error("leaf ingress: a grant smaller than its copies' units");
  q.credits += live;
  return units - live;
}

void LeafIngress::on_ack(uint32_t voq_index, uint32_t count) {
  Voq& q = voqs_[voq_index];
  if (count > q.in_flight.size()) throw std::logic_error("leaf ingress: ACK for a copy not in flight");
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t slot = q.in_flight.front();
    q.in_flight.pop_front();
    release_copy(voq_index, slot);
  }
}

uint32_t LeafIngress::on_ack_through(uint32_t voq_index, uint32_t through) {
  const Voq& q = voqs_[voq_index];
  if (through > q.next_copy_seq) throw std::logic_error("leaf ingress: ACK for a copy not yet sent");
  const uint32_t oldest = oldest_in_flight(q);
  if (through <= oldest) return 0;
  on_ack(voq_index, through - oldest);
  return through - oldest;
}

std::optional<uint32_t> LeafIngress::in_flight_slot(uint32_t voq_index, uint32_t copy_seq) const {
  const Voq& q = voqs_[voq_index];
  const uint32_t oldest = oldest_in_flight(q);
  if (copy_seq < oldest || copy_seq >= q.next_copy_seq) return std::nullopt;
  return q.in_flight[copy_seq - oldest];
}

void LeafIngress::track_culprits(CulpritPolicy policy, uint32_t max_probes) {
  const uint32_t memory = params_.lossy_pool_units + kPriorities * params_.lossless_pool_units;
  culprits_ = make_ingress_culprits(policy, memory, max_probes);
}

void LeafIngress::free_frame(uint32_t slot) {
  StoredFrame& s = frames_[slot];
  payload_pool(s.priority, s.pool_vl).give_back(s.units);
  if (culprits_) culprits_->on_free(slot, s.flow, s.priority, s.units);
  free_slots_.push_back(slot);
}

uint32_t LeafIngress::payload_units() const {
  uint32_t units = lossy_pool_.used();
  for (const BufferPool& pool : lossless_pool_) units += pool.used();
  return units;
}

RoomShortage LeafIngress::room_for(const FrameHeader& f, HeaderDemand demand) const {
  if (!lossless(f.priority)) return RoomShortage::none;
  if (!lossless_pool_[raw(arrival_vl(f))].can_take(segment_count(f.bytes, params_.packet_bytes)))
    return RoomShortage::payload;
  const Vl final_vl = copy_vl(f, false);
  bool fits;
  if (demand.to_surrogates == 0) {
    fits = header_pool_[raw(final_vl)].can_take(demand.to_destinations);
  } else if (f.levels == 0) {  // at the source both go on the starting VL
    fits = header_pool_[raw(final_vl)].can_take(demand.to_destinations + demand.to_surrogates);
  } else {
    if (f.levels >= kVlsPerPriority)
      throw std::logic_error("leaf ingress: copies towards surrogates below the deepest level");
    fits = header_pool_[raw(final_vl)].can_take(demand.to_destinations) &&
           header_pool_[raw(copy_vl(f, true))].can_take(demand.to_surrogates);
  }
  return fits ? RoomShortage::none : RoomShortage::headers;
}

std::optional<PauseChange> LeafIngress::pause_change(uint8_t priority) {
  if (!lossless(priority)) return std::nullopt;
  const bool held = holding(priority);
  const bool thresholds = params_.pause_enabled;
  const uint32_t used = lossless_pool_[raw(unicast_vl(priority))].used();
  const uint32_t headers = header_pool_[raw(unicast_vl(priority))].used();
  const bool headers_high = thresholds && headers > params_.pause_headers_hi;
  if (!paused_[priority] && (held || headers_high || (thresholds && used > params_.pause_qhi_units))) {
    paused_[priority] = true;
    return PauseChange{priority, true, headers_high};
  }
  const bool below = !thresholds || (used < params_.pause_qlow_units && headers < params_.pause_headers_lo);
  if (paused_[priority] && !held && below) {
    paused_[priority] = false;
    return PauseChange{priority, false};
  }
  return std::nullopt;
}

uint64_t LeafIngress::copies_waiting() const {
  uint64_t n = 0;
  for (const Voq& q : voqs_) n += q.waiting.size() + q.in_flight.size();
  for (const auto& frames : held_) n += frames.size();
  return n;
}

}  // namespace fabric
