#include "model/cna/cna.h"

#include <algorithm>
#include <optional>

#include "model/core/sim_time.h"
#include "model/invariants/invariant_broken.h"
#include "model/leaf/fdb.h"
#include "model/protocol/ethernet_frame.h"

namespace fabric {

namespace {}  // namespace

Cna::Cna(sc_core::sc_module_name name, PortId port, const CnaParams& params, PayloadPool& pool, EventQueue& events)
    : sc_module(name),
      events_(events),
      rx("rx", *this, 0, events_),
      tx("tx", *this, 0, pool, ethernet_tx_params(), events_),
      port_(port),
      params_(params),
      pool_(pool),
      received_(port) {
  if (params.e2e.enabled) {
    transport_ = std::make_unique<E2eTransport>(params.e2e);
  }
  SC_METHOD(start);  // runs once at time 0: the first frames go out
}

void Cna::attach(std::unique_ptr<FrameSource> source) {
  const int p = source->priority();
  if (admission_[p].empty())
    used_priorities_.insert(std::upper_bound(used_priorities_.begin(), used_priorities_.end(), p), p);
  admission_[p].add(sources_.size());
  sources_.push_back(std::move(source));
  source_blocked_.push_back(false);
  limiters_.emplace_back();
}

Cna::FrameQueue& Cna::queue_of(size_t source) {
  return limiters_[source] ? limiters_[source]->queue : queues_[sources_[source]->priority()];
}

void Cna::start() { tx.kick(); }

bool Cna::has_frame_due(size_t source, Picos now) const {
  return source_blocked_[source] || sources_[source]->next_time() <= now;
}

void Cna::admit_one(size_t source, FrameQueue& queue, Picos now) {
  FrameSource& s = *sources_[source];
  if (source_blocked_[source]) {  // held back while the queue was full: its frame is created now
    s.defer_to(now);
    source_blocked_[source] = false;
    if (s.next_time() > now) return;  // the hold-back outlasted its on-interval
  }
  const NewFrame f = s.pop(now);
  const FrameId id = FrameId((uint64_t{raw(port_)} << 32) | next_frame_seq_++);
  queue.push_back({id, f.flow, f.dst_mac, f.bytes, f.created, f.message});
}

void Cna::generate(Picos now) {
  const size_t capacity = static_cast<size_t>(params_.queue_frames);
  // A rate-limited flow fills a queue of its own.
  for (size_t i = 0; limited_ > 0 && i < sources_.size(); ++i) {
    if (!limiters_[i]) continue;
    auto& queue = limiters_[i]->queue;
    while (queue.size() < capacity && has_frame_due(i, now)) admit_one(i, queue, now);
    if (queue.size() >= capacity && has_frame_due(i, now)) source_blocked_[i] = true;
  }
  // The flows of one priority share its queue: places go round robin, so
  // each flow with frames due gets the same number of them.
  for (int p : used_priorities_) {
    auto& queue = queues_[p];
    auto shares_queue_with_frame_due = [&](size_t i) { return !limiters_[i] && has_frame_due(i, now); };
    while (queue.size() < capacity) {
      const std::optional<size_t> i = admission_[p].next(shares_queue_with_frame_due);
      if (!i) break;
      admit_one(*i, queue, now);
    }
    if (queue.size() < capacity) continue;
    for (size_t i : admission_[p].members())
      if (shares_queue_with_frame_due(i)) source_blocked_[i] = true;  // waits for a place
  }
}

bool Cna::has_ready(int p, Picos now) const {
  if (paused_[p]) return false;
  if (!queues_[p].empty() || transport_ready(p)) return true;
  if (limited_ == 0) return false;
  for (size_t i = 0; i < sources_.size(); ++i) {
    const Limiter* l = limiters_[i].get();
    if (l && sources_[i]->priority() == p && !l->queue.empty() && l->eligible_at <= now) return true;
  }
  return false;
}

int Cna::pick_priority(Picos now) const {
  if (params_.strict_priority) {
    for (int p = kPriorities - 1; p >= 0; --p)
      if (has_ready(p, now)) return p;
    return -1;
  }
  for (int k = 1; k <= kPriorities; ++k) {
    const int p = (round_robin_next_ + kPriorities - k) % kPriorities;
    if (has_ready(p, now)) {
      round_robin_next_ = p;
      return p;
    }
  }
  return -1;
}

int Cna::take_turn(int p, Picos now) {
  if (limited_ == 0) return -1;
  const size_t slots = sources_.size() + 1;
  for (size_t k = 0; k < slots; ++k) {
    const size_t slot = (turn_[p] + k) % slots;
    const bool ready = slot == 0 ? !queues_[p].empty()
                                 : limiters_[slot - 1] && sources_[slot - 1]->priority() == p &&
                                       !limiters_[slot - 1]->queue.empty() && limiters_[slot - 1]->eligible_at <= now;
    if (!ready) continue;
    turn_[p] = slot + 1;
    return static_cast<int>(slot) - 1;
  }
  return -1;
}

TxSource::Pull Cna::next_data(int, Picos) {
  const Picos now = now_ps();
  if (!pending_cnms_.empty()) apply_due_cnms(now);
  if (limited_ > 0) advance_limiter_timers(now);
  if (transport_) advance_transport(now);
  generate(now);
  const int p = pick_priority(now);
  if (p < 0) {
    Picos retry = next_qcn_wake();
    if (transport_) retry = std::min(retry, transport_->next_due());
    for (size_t i = 0; i < sources_.size(); ++i)
      if (!source_blocked_[i] && !paused_[sources_[i]->priority()]) retry = std::min(retry, sources_[i]->next_time());
    return {nullptr, retry};
  }
  if (transport_ready(p)) return {next_transport_frame(p, now), kNever};
  const int source = take_turn(p, now);
  FrameQueue& queue = source < 0 ? queues_[p] : limiters_[source]->queue;
  const QueuedFrame q = queue.front();
  queue.pop_front();
  if (limited_ > 0) after_send(source, q.bytes, now);
  Payload& m = build_frame(q, p);
  if (transport_) number_frame(frame_of(m), q, now);
  if (observer_) observer_->on_frame(q.id, q.flow, q.bytes, static_cast<uint8_t>(p), q.created, now);
  ++frames_sent_;
  return {&m, kNever};
}

Payload& Cna::build_frame(const QueuedFrame& q, int p) {
  Payload& m = acquire_frame(pool_, {q.id, q.flow, port_, q.bytes, static_cast<uint8_t>(p), q.created}, q.dst_mac);
  frame_of(m).sent_seq = ++sent_seq_[p];
  frame_of(m).message = q.message;
  return m;
}

void Cna::receive(int, Payload& payload) {
  const Picos now = now_ps();
  if (info_of(payload).kind == MessageKind::control) {
    const ControlMessage& c = control_of(payload);
    if (c.kind == ControlKind::pause) {
      paused_[c.priority] = c.stop;
      if (!c.stop) tx.kick();
    } else if (c.kind == ControlKind::cnm) {
      on_cnm(c, now);
    }
    payload.release();
    return;
  }
  const EthernetFrame& f = frame_of(payload);
  if (f.transport != TransportKind::none && !accept_transport(f, now)) {
    payload.release();
    return;
  }
  if (bound_) check_delivery(f, now);
  check_order(f, now);
  if (observer_) observer_->on_delivery(f.frame, f.flow, now, f.levels, f.bytes, f.created);
  received_.add(f.flow, f.bytes, now, now - f.created);
  const bool more_due = f.message != 0 && listener_ && listener_->arrived(f, now);
  payload.release();
  if (more_due) tx.kick();
}

void Cna::check_delivery(const EthernetFrame& f, Picos now) {
  ++invariants_checked_;
  if (now - f.created >= bound_->minimum(f.src, port_, f.bytes, f.levels)) return;
  break_invariant(invariant::kDataPath, name(), now,
                  "a copy of frame " + std::to_string(raw(f.frame)) + " (flow " + std::to_string(raw(f.flow)) +
                      ", from port " + std::to_string(raw(f.src)) + ", " + std::to_string(f.levels) +
                      " surrogate levels) delivered " + std::to_string((now - f.created) / 1e3) +
                      " ns after its creation; " + bound_->describe(f.src, port_, f.bytes, f.levels));
}

void Cna::check_order(const EthernetFrame& f, Picos now) {
  ++invariants_checked_;
  const bool multicast = !is_cna_mac(f.dst_mac);
  const uint32_t previous = order_.deliver(f.src, f.priority, multicast, f.mid, f.sent_seq);
  if (f.sent_seq > previous) return;
  break_invariant(invariant::kInOrder, name(), now,
                  "frame " + std::to_string(raw(f.frame)) + " (flow " + std::to_string(raw(f.flow)) + ", from port " +
                      std::to_string(raw(f.src)) + ", priority " + std::to_string(f.priority) +
                      (multicast ? ", group " + std::to_string(raw(f.mid)) : std::string()) + ") has send number " +
                      std::to_string(f.sent_seq) + " of its priority, and number " + std::to_string(previous) +
                      " was delivered here before it: " +
                      (f.sent_seq == previous ? "delivered twice" : "the fabric let a later frame overtake it"));
}

void Cna::finish() {
  if (!observer_) return;
  for (int p = 0; p < kPriorities; ++p)
    for (size_t k = 0; k < queues_[p].size(); ++k) {
      const QueuedFrame& q = queues_[p][k];
      observer_->on_frame(q.id, q.flow, q.bytes, static_cast<uint8_t>(p), q.created, -1);
    }
  for (size_t i = 0; i < sources_.size(); ++i)
    if (limiters_[i])
      for (size_t k = 0; k < limiters_[i]->queue.size(); ++k) {
        const QueuedFrame& q = limiters_[i]->queue[k];
        observer_->on_frame(q.id, q.flow, q.bytes, static_cast<uint8_t>(sources_[i]->priority()), q.created, -1);
      }
}

std::vector<SubflowSummary> Cna::received_summaries() const { return received_.summaries(); }

size_t Cna::queued() const {
  size_t n = 0;
  for (const auto& q : queues_) n += q.size();
  for (const auto& l : limiters_)
    if (l) n += l->queue.size();
  return n;
}

}  // namespace fabric
