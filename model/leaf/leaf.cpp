// Leaf: composition of the units, the links' ends, and the routing of what
// arrives to the unit it is for.
#include "model/leaf/leaf.h"

#include "model/core/sim_time.h"

namespace fabric {

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
    : sc_module(name),
      params_(ctx.params),
      surrogate_params_(ctx.params.for_surrogate()),
      layout_{this->name(),
              id,
              ctx.geometry,
              ctx.geometry.user_ports_per_leaf,
              ctx.geometry.user_ports_per_leaf,
              ctx.geometry.user_ports_per_leaf + 1,
              ctx.geometry.spines,
              to_ps(ctx.params.cycle)},
      internal_(ctx.events, [this](Payload& m) { on_internal(m); }),
      control_(layout_, params_, ctx.pool, internal_, links_, ctx.events),
      ingress_(layout_, params_, surrogate_params_, ctx.seed, ctx.fdb, ctx.mcbc, links_,
               {control_, crossbar_, multicast_, loop_, congestion_}),
      crossbar_(layout_, params_, ctx.events, {ingress_, multicast_, injection_, retransmit_}),
      multicast_(layout_, params_, ctx.events, {ingress_, crossbar_, injection_, retransmit_}),
      retransmit_(layout_, params_, ctx.events, {ingress_, crossbar_}),
      injection_(layout_, params_, ctx.pool, internal_, links_, crossbar_),
      egress_(layout_, params_, surrogate_params_, ctx.pool, links_, {control_, loop_, congestion_}),
      loop_(layout_, params_, ctx.events, {ingress_, egress_}),
      congestion_(layout_, params_, ctx.seed, links_, {ingress_, egress_, control_}) {
  const int users = layout_.users;
  links_.users = users;
  TxPortParams user_tx;  // Ethernet towards the CNA: no credits, PAUSE only
  user_tx.coalesce_control = false;
  for (int k = 0; k < users; ++k) {
    links_.rx.push_back(std::make_unique<RxPort>(("cna_rx" + std::to_string(k)).c_str(), *this, k, ctx.events));
    links_.tx.push_back(
        std::make_unique<TxPort>(("cna_tx" + std::to_string(k)).c_str(), *this, k, ctx.pool, user_tx, ctx.events));
  }
  for (int s = 0; s < layout_.spines; ++s) {
    const int i = users + s;
    links_.rx.push_back(std::make_unique<RxPort>(("spine_rx" + std::to_string(s)).c_str(), *this, i, ctx.events));
    const TxPortParams uplink_tx = fabric_link_tx(params_, ctx.credit_return, ctx.spine_buffer_packets.at(s));
    links_.tx.push_back(
        std::make_unique<TxPort>(("spine_tx" + std::to_string(s)).c_str(), *this, i, ctx.pool, uplink_tx, ctx.events));
    links_.rx.back()->set_credit_sink(*links_.tx.back());
  }
}

Leaf::~Leaf() = default;

void Leaf::prefetch_receive(int rx_index, const Payload& payload) const {
  if (rx_index < layout_.users) {
    __builtin_prefetch(&ingress_.port(rx_index));
    return;
  }
  if (info_of(payload).kind == MessageKind::packet) {
    const int k = layout_.geometry.local_index(packet_of(payload).target);
    egress_.prefetch(k);
    links_.tx[k]->prefetch_state();
  }
}

void Leaf::prefetch_receive_deep(int rx_index, const Payload& payload) const {
  if (rx_index < layout_.users || info_of(payload).kind != MessageKind::packet) return;
  const FabricPacket& p = packet_of(payload);
  const int k = layout_.geometry.local_index(p.target);
  egress_.port(k).prefetch_context(p.src, p.vl);
  links_.tx[k]->prefetch_path();
}

void Leaf::receive(int rx_index, Payload& payload) {
  const MessageInfo& info = info_of(payload);
  if (rx_index < layout_.users) {
    if (info.kind != MessageKind::frame) SC_REPORT_FATAL(name(), "a CNA sent its leaf something other than a frame");
    if (frame_of(payload).src != layout_.port(rx_index)) SC_REPORT_FATAL(name(), "a CNA sent a frame of another port");
    internal_.push(now_ps() + to_ps(params_.lookup), payload);  // its header is looked up, then admitted
    return;
  }
  const int s = rx_index - layout_.users;
  const Picos now = now_ps();
  if (info.kind == MessageKind::packet) {
    uplink_tx(s).return_credits(1);  // the downlink buffer drains at crossbar speed
    const int k = layout_.geometry.local_index(packet_of(payload).target);
    egress_.enter(k, payload, now + to_ps(params_.traversal));
    return;
  }
  internal_.push(now + to_ps(params_.traversal), payload);
}

void Leaf::on_internal(Payload& message) {
  if (info_of(message).kind == MessageKind::frame) {
    ingress_.on_frame(layout_.geometry.local_index(frame_of(message).src), message);
    return;
  }
  if (info_of(message).kind == MessageKind::packet) {
    const int k = layout_.geometry.local_index(packet_of(message).target);
    egress_.enter(k, message, now_ps());
  } else {
    on_control(message);
  }
}

void Leaf::on_control(Payload& message) {
  if (control_of(message).kind == ControlKind::cnm) {  // on its way to the culprit's CNA
    user_tx(layout_.geometry.local_index(control_of(message).to)).send_control(message);
    return;
  }
  const ControlMessage c = control_of(message);
  message.release();
  ++control_received_;
  switch (c.kind) {
    case ControlKind::request:
      egress_.on_request(c);
      break;
    case ControlKind::grant:
      ingress_.on_grant(c);
      break;
    case ControlKind::cancel:
      egress_.on_cancel(c);
      break;
    case ControlKind::ack:
      ingress_.on_ack(c);
      break;
    default:
      SC_REPORT_FATAL(name(), "unexpected control message inside the fabric");
  }
}

void Leaf::prefetch_next(int tx_index) const {
  if (tx_index >= layout_.users) {
    injection_.prefetch_next(tx_index - layout_.users);
    return;
  }
  __builtin_prefetch(&egress_.port(tx_index));
}

TxSource::Pull Leaf::next_data(int tx_index, Picos not_after) {
  if (tx_index >= layout_.users) return injection_.next_packet(tx_index - layout_.users, not_after);
  return egress_.next_frame(tx_index, now_ps());
}

void Leaf::transmission_done(int tx_index) {
  if (tx_index < layout_.users) egress_.transmission_done(tx_index);
}

void Leaf::set_observer(LeafObserver* observer) {
  ingress_.set_observer(observer);
  loop_.set_observer(observer);
  retransmit_.set_observer(observer);
  congestion_.set_observer(observer);
  multicast_.set_observer(observer);
}

uint64_t Leaf::ingress_payload_units(int k) const { return ingress_.port(k).payload_units(); }

uint64_t Leaf::egress_used_units(int k) const { return egress_.port(k).used_units(); }

void Leaf::describe_backlog(std::ostream& out, int max_lines) const {
  ingress_.describe_backlog(out, max_lines);
  multicast_.describe_streams(out, max_lines);
}

}  // namespace fabric
