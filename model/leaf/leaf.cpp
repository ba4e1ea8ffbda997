// Leaf: construction, arrivals from links, control-message routing.
#include "model/leaf/leaf.h"

#include <sstream>

#include "model/core/random.h"
#include "model/core/sim_time.h"

namespace fabric {

using sc_core::sc_time;

TxPortParams fabric_link_tx(const LeafParams& leaf, const CreditReturnParams& credit_return, int credits) {
  TxPortParams p;
  p.credits = credits;
  p.coalesce_control = leaf.coalesce_control;
  p.max_request_units = leaf.max_frame_units;
  p.control_bytes = leaf.control_bytes;
  p.credit_batch = credit_return.batch;
  p.credit_delay = credit_return.delay;
  return p;
}

Leaf::Leaf(sc_core::sc_module_name name, LeafId id, const LeafContext& ctx)
    : sc_module(name), id_(id), params_(ctx.params), geometry_(ctx.geometry), fdb_(ctx.fdb), mcbc_(ctx.mcbc), pool_(ctx.pool),
      recorder_(ctx.recorder), users_(ctx.geometry.user_ports_per_leaf), surrogate_(users_), ports_(users_ + 1),
      spines_(ctx.geometry.spines), surrogate_params_(ctx.params.for_surrogate()),
      spray_(make_spray_policy(ctx.params.spray)),
      events_(ctx.events), internal_(events_, [this](Payload& m) { on_internal(m); }) {
  TxPortParams user_tx;  // Ethernet towards the CNA: no credits, PAUSE only
  user_tx.coalesce_control = false;
  const TxPortParams uplink_tx = fabric_link_tx(params_, ctx.credit_return, ctx.spine_buffer_packets);
  for (int k = 0; k < users_; ++k) {
    rx_.push_back(std::make_unique<RxPort>(("cna_rx" + std::to_string(k)).c_str(), *this, k, events_));
    tx_.push_back(std::make_unique<TxPort>(("cna_tx" + std::to_string(k)).c_str(), *this, k, pool_, user_tx, events_));
    ingress_.emplace_back(port(k), params_, mix_seed(ctx.seed, 0x696e677265737300ULL + raw(port(k))));
    egress_.emplace_back(port(k), params_);
  }
  // The surrogate port: no link; its egress loops frames back to its ingress.
  ingress_.emplace_back(port(surrogate_), surrogate_params_, mix_seed(ctx.seed, 0x696e677265737300ULL + raw(port(surrogate_))));
  egress_.emplace_back(port(surrogate_), surrogate_params_);
  loop_wakeup_ = std::make_unique<Wakeup>(events_, [this] { loop_step(); });
  for (int s = 0; s < spines_; ++s) {
    const int i = users_ + s;
    rx_.push_back(std::make_unique<RxPort>(("spine_rx" + std::to_string(s)).c_str(), *this, i, events_));
    tx_.push_back(std::make_unique<TxPort>(("spine_tx" + std::to_string(s)).c_str(), *this, i, pool_, uplink_tx, events_));
    rx_.back()->set_credit_sink(*tx_.back());
  }
  inputs_.resize(ports_);
  for (int k = 0; k < ports_; ++k) {
    inputs_[k].wakeup =
        std::make_unique<Wakeup>(events_, [this, k] { crossbar_step(k); });
  }
  crossbar_out_free_.assign(ports_, 0);
  retransmissions_.assign(ports_, 0);
  if (params_.retransmit) {
    retransmit_ = std::make_unique<RetransmitTimers>(params_.retransmit_timeout);
    retransmit_wakeup_ = std::make_unique<Wakeup>(events_, [this] { retransmit_step(); });
  }
  cycle_ps_ = to_ps(params_.cycle);
  seed_ = ctx.seed;
  cp_in_.resize(ports_);
  cp_out_.resize(ports_);
  if (params_.qcn_ingress && params_.culprit != CulpritPolicy::arrival)
    for (LeafIngress& in : ingress_) in.track_culprits(params_.culprit, params_.culprit_probes);
  mc_.resize(ports_);
  for (PortMulticast& pm : mc_) {
    pm.share = InputShare(params_.multicast_weight);
    if (params_.sync_enabled) {
      VoqSyncCam::Params sp;
      sp.entries = params_.sync_entries;
      sp.shi = params_.sync_shi;
      sp.slow = params_.sync_slow;
      sp.timeout_cycles = static_cast<Cycle>((to_ps(params_.sync_timeout) + cycle_ps_ - 1) / cycle_ps_);
      pm.sync = std::make_unique<VoqSyncCam>(sp);
    }
  }
  if (params_.cache_enabled) {
    MulticastCache::Params cp;
    cp.entries = params_.cache_entries;
    cp.mirrors = params_.cache_mirrors;
    cp.header_lag_cycles = params_.cache_header_lag_cycles;
    cp.background_free_min = params_.cache_background_free_min;
    cache_ = std::make_unique<MulticastCache>(cp, ports_);
  }
  mc_clock_ = std::make_unique<Wakeup>(events_, [this] { multicast_clock(); });
  forwarding_.resize(users_);
  uplinks_.reset(new UplinkQueue[static_cast<size_t>(spines_)]);
  uplink_depth_.assign(spines_, 0);
}

Leaf::~Leaf() = default;

void Leaf::prefetch_receive(int rx_index, const Payload& payload) const {
  if (rx_index < users_) {
    __builtin_prefetch(&ingress_[rx_index]);
    prefetch_frame_extension(payload);
    return;
  }
  if (info_of(payload).kind == MessageKind::packet) {
    const int k = geometry_.local_index(packet_of(payload).target);
    __builtin_prefetch(&egress_[k]);
    __builtin_prefetch(&crossbar_out_free_[k]);
    tx_[k]->prefetch_state();
  }
}

void Leaf::prefetch_receive_deep(int rx_index, const Payload& payload) const {
  if (rx_index < users_ || info_of(payload).kind != MessageKind::packet) return;
  const FabricPacket& p = packet_of(payload);
  const int k = geometry_.local_index(p.target);
  egress_[k].prefetch_context(p.src, p.vl);
  tx_[k]->prefetch_path();
}

void Leaf::receive(int rx_index, Payload& payload) {
  const MessageInfo& info = info_of(payload);
  if (rx_index < users_) {
    if (info.kind != MessageKind::frame) SC_REPORT_FATAL(name(), "a CNA sent its leaf something other than a frame");
    on_frame(rx_index, payload);
    return;
  }
  const int s = rx_index - users_;
  const Picos now = now_ps();
  if (info.kind == MessageKind::packet) {
    uplink_tx(s).return_credits(1);  // the downlink buffer drains at crossbar speed
    const int k = geometry_.local_index(packet_of(payload).target);
    enter_egress(k, payload, now + to_ps(params_.traversal));
    return;
  }
  internal_.push(now + to_ps(params_.traversal), payload);
}

void Leaf::on_internal(Payload& message) {
  if (info_of(message).kind == MessageKind::packet) {
    const int k = geometry_.local_index(packet_of(message).target);
    enter_egress(k, message, now_ps());
  } else {
    on_control(message);
  }
}

void Leaf::on_frame(int k, Payload& payload) {
  const EthernetFrame f = frame_of(payload);
  payload.release();
  const FdbEntry entry = fdb_.lookup(f.dst_mac);
  if (entry.kind == FdbEntry::multicast) {
    on_multicast_frame(k, f, entry.mid);
    return;
  }
  if (entry.kind == FdbEntry::unknown) {
    drop_frame(k, f, DropReason::other, -1);
    return;
  }
  const std::optional<PortId> target = entry.target;
  const LeafId target_leaf = geometry_.leaf_of(*target);
  LeafIngress::Admission a = ingress_[k].admit(f, *target, target_leaf);
  if (!a.voq) {
    drop_frame(k, f, a.reason, a.reason == DropReason::payload ? -1 : static_cast<int64_t>(raw(*target)));
    return;
  }
  if (a.drop_head_of) {
    drop_from_head(k, *a.drop_head_of);
    list_if_ready(k, *a.drop_head_of);
  }
  const Voq& q = ingress_[k].voq(*a.voq);
  send_control(ControlKind::request, port(k), *target, q.vl, ingress_[k].frame(q.waiting.back()).units, 1);
  if (params_.qcn_ingress) sample_ingress_cp(k, f);
  check_pause(k, f.priority);
}

void Leaf::drop_frame(int k, const EthernetFrame& f, DropReason reason, int64_t dst) {
  ++drops_;
  recorder_.drop({f.frame, f.flow, port(k), dst, reason, now_ps()});
}

void Leaf::sample_occupancy(Picos t) {
  for (int k = 0; k < ports_; ++k) {
    const std::string entity = "port" + std::to_string(raw(port(k)));
    recorder_.sample(t, entity, "ingress_bytes", static_cast<double>(ingress_[k].payload_units()) * params_.packet_bytes);
    recorder_.sample(t, entity, "egress_bytes", static_cast<double>(egress_[k].used_units()) * params_.packet_bytes);
  }
  record_cache_counters(t);
}

void Leaf::check_pause(int k, uint8_t priority) {
  if (k == surrogate_) return;  // its PAUSE is internal: check_loop_pause
  const std::optional<PauseChange> change = ingress_[k].pause_change(priority);
  if (!change) return;
  Payload& m = pool_.acquire(MessageKind::control, params_.control_frame_bytes);
  ControlMessage& c = control_of(m);
  c.kind = ControlKind::pause;
  c.from = c.to = port(k);
  c.to_leaf = id_;
  c.priority = change->priority;
  c.stop = change->stop;
  c.count = 1;
  c.units = 0;
  user_tx(k).send_control(m);
  recorder_.event(now_ps(), change->stop ? EventKind::pause : EventKind::go,
                  "port" + std::to_string(raw(port(k))), -1, change->priority);
}

void Leaf::send_control(ControlKind kind, PortId from, PortId to, Vl vl, uint32_t units, uint32_t count) {
  Payload& m = pool_.acquire(MessageKind::control, params_.control_bytes);
  ControlMessage& c = control_of(m);
  c.kind = kind;
  c.from = from;
  c.to = to;
  c.to_leaf = geometry_.leaf_of(to);
  c.vl = vl;
  c.units = units;
  c.count = count;
  route_control(m);
}

void Leaf::route_control(Payload& message) {
  const Picos due = now_ps() + to_ps(params_.traversal);
  if (is_local(control_of(message).to_leaf)) {
    internal_.push(due, message);
    return;
  }
  // Control messages need no credits; spread them over the uplinks.
  const int s = static_cast<int>(control_uplink_rr_++ % static_cast<size_t>(spines_));
  info_of(message).ready_at = due;
  uplink_tx(s).send_control(message);
}

void Leaf::on_control(Payload& message) {
  if (control_of(message).kind == ControlKind::cnm) {  // on its way to the culprit's CNA
    user_tx(geometry_.local_index(control_of(message).to)).send_control(message);
    return;
  }
  const ControlMessage c = control_of(message);
  message.release();
  const int k = geometry_.local_index(c.to);
  switch (c.kind) {
    case ControlKind::request:
      egress_[k].on_request(c.from, c.vl, c.units, c.count);
      run_arbiter(k);
      break;
    case ControlKind::grant:
      on_grant(c);
      break;
    case ControlKind::cancel:
      egress_[k].on_cancel(c.vl, c.units);
      run_arbiter(k);
      break;
    case ControlKind::ack: {
      const std::optional<uint32_t> q = ingress_[k].find_voq(c.from, c.vl);
      if (!q) SC_REPORT_FATAL(name(), "ACK for a VOQ that does not exist");
      ingress_[k].on_ack_through(*q, c.units);
      const int priority = priority_of(c.vl);
      check_pause(k, static_cast<uint8_t>(priority));
      if (k == surrogate_)  // the acknowledged frames may have arrived on any of the priority's VLs
        for (int level = 0; level < kVlsPerPriority; ++level) check_loop_pause(Vl(priority * kVlsPerPriority + level));
      break;
    }
    default:
      SC_REPORT_FATAL(name(), "unexpected control message inside the fabric");
  }
}

void Leaf::on_grant(const ControlMessage& grant) {
  const int k = geometry_.local_index(grant.to);
  const std::optional<uint32_t> q = ingress_[k].find_voq(grant.from, grant.vl);
  if (!q) SC_REPORT_FATAL(name(), "grant for a VOQ that does not exist");
  ingress_[k].on_grant(*q, grant.units);
  if (ingress_[k].voq(*q).owed_units > 0) pay_owed(k, *q);  // spare credit goes back
  list_if_ready(k, *q);
}

void Leaf::list_if_ready(int k, uint32_t voq) {
  Voq& q = ingress_[k].voq(voq);
  if (q.listed_ready || q.streaming || !ingress_[k].head_covered(q)) return;
  if (mc_[k].sync && mc_[k].sync->suspended(voq)) {
    q.parked = true;  // listed again when the sync CAM resumes it
    return;
  }
  if (ingress_[k].frame(q.waiting.front()).multicast) {
    start_stream(k, voq);
    return;
  }
  q.listed_ready = true;
  inputs_[k].ready.push_back(voq);
  if (!inputs_[k].sending) inputs_[k].wakeup->at(now_ps());
}

void Leaf::run_arbiter(int k) {
  grants_.clear();
  egress_[k].arbitrate(grants_);
  for (const EgressGrant& g : grants_) send_control(ControlKind::grant, port(k), g.src, g.vl, g.units, g.frames);
}

uint64_t Leaf::backlog() const {
  uint64_t n = 0;
  for (const auto& in : ingress_) n += in.copies_waiting();
  for (const auto& eg : egress_) n += eg.copies_held();
  return n;
}

void Leaf::describe_backlog(std::ostream& out, int max_lines) const {
  for (int k = 0; k < ports_ && max_lines > 0; ++k) {
    const LeafIngress& in = ingress_[k];
    for (size_t v = 0; v < in.voq_count() && max_lines > 0; ++v) {
      const Voq& q = const_cast<LeafIngress&>(in).voq(static_cast<uint32_t>(v));
      if (q.waiting.empty() && q.in_flight.empty()) continue;
      out << "  " << name() << " port " << raw(port(k)) << " VOQ(target " << raw(q.target) << ", VL "
          << int(raw(q.vl)) << "): " << q.waiting.size() << " waiting, " << q.in_flight.size()
          << " awaiting ACK, credit " << q.credits << " units"
          << (q.parked ? ", suspended by VOQ sync" : q.streaming ? ", sending a multicast copy" : "") << "\n";
      --max_lines;
    }
  }
}

}  // namespace fabric
