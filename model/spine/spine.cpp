#include "model/spine/spine.h"

#include "model/core/sim_time.h"

namespace fabric {

Spine::Spine(sc_core::sc_module_name name, int used_ports, const SpineParams& params, PayloadPool& pool,
             const TxPortParams& leaf_facing, EventQueue& events)
    : sc_module(name), events_(events), params_(params), ports_(new Port[used_ports]), used_ports_(used_ports) {
  for (int i = 0; i < used_ports; ++i) {
    rx_.push_back(std::make_unique<RxPort>(("rx" + std::to_string(i)).c_str(), *this, i, events_));
    tx_.push_back(std::make_unique<TxPort>(("tx" + std::to_string(i)).c_str(), *this, i, pool, leaf_facing, events_));
    rx_.back()->set_credit_sink(*tx_.back());
  }
}

namespace {
// The port a message leaves by: port i faces leaf i.
int leaving_port(const Payload& m) {
  return static_cast<int>(
      raw(info_of(m).kind == MessageKind::packet ? packet_of(m).target_leaf : control_of(m).to_leaf));
}

// A message the spine forwards (not a credit or link ACK its port consumes).
bool forwarded(const Payload& m) { return info_of(m).kind == MessageKind::packet || !link_level(control_of(m).kind); }
}  // namespace

void Spine::prefetch_receive(int i, const Payload& payload) const {
  __builtin_prefetch(&ports_[i].input);
  if (!forwarded(payload)) return;
  const int o = leaving_port(payload);
  if (info_of(payload).kind == MessageKind::packet) __builtin_prefetch(&ports_[o].output);
  tx_[o]->prefetch_state();
}

void Spine::receive(int i, Payload& payload) {
  const MessageInfo& info = info_of(payload);
  if (info.kind == MessageKind::packet) {
    Port& in = ports_[i];
    if (in.input.size() >= static_cast<size_t>(params_.buffer_packets))
      SC_REPORT_FATAL(name(), "input buffer overflow: the upstream leaf sent without credit");
    in.input.push_back(&payload);
    if (in.input.size() == 1) try_forward(i);
    return;
  }
  info_of(payload).ready_at = now_ps() + to_ps(params_.traversal);
  tx_[leaving_port(payload)]->send_control(payload);
}

void Spine::try_forward(int i) {
  const Picos ready = now_ps() + to_ps(params_.traversal);
  Port& in = ports_[i];
  while (!in.input.empty()) {
    Payload* head = in.input.front();
    const int o = leaving_port(*head);
    Port& out = ports_[o];
    if (out.output.size() >= static_cast<size_t>(params_.buffer_packets)) {
      if (!in.input_waiting) {
        in.input_waiting = true;
        out.waiting.push_back(static_cast<uint16_t>(i));
      }
      return;
    }
    in.input.pop_front();
    info_of(*head).ready_at = ready;
    out.output.push_back(head);
    tx_[i]->return_credits(1);
    tx_[o]->kick();
  }
}

void Spine::prefetch_next(int o) const {
  const Port& out = ports_[o];
  __builtin_prefetch(&out.output);
  if (!out.output.empty()) prefetch_message(out.output.front());
}

void Spine::prefetch_receive_deep(int, const Payload& payload) const {
  if (forwarded(payload)) tx_[leaving_port(payload)]->prefetch_path();
}

TxSource::Pull Spine::next_data(int o, Picos not_after) {
  Port& out = ports_[o];
  if (out.output.empty()) return {};
  Payload* head = out.output.front();
  const Picos ready = info_of(*head).ready_at;
  if (ready > not_after) return {nullptr, ready};
  out.output.pop_front();
  if (!out.waiting.empty()) {  // the freed slot goes to the longest-waiting input
    const int i = out.waiting.front();
    out.waiting.pop_front();
    ports_[i].input_waiting = false;
    try_forward(i);
  }
  return {head, kNever};
}

uint64_t Spine::backlog() const {
  uint64_t n = 0;
  for (int i = 0; i < used_ports_; ++i) n += ports_[i].input.size() + ports_[i].output.size();
  return n;
}

void Spine::describe_backlog(std::ostream& out, int max_lines) const {
  for (int o = 0; o < used_ports_ && max_lines > 0; ++o) {
    const Port& p = ports_[o];
    if (p.output.empty() && p.input.empty()) continue;
    out << "  " << name() << " port " << o << ": input " << p.input.size() << " packets, output " << p.output.size()
        << " packets, " << tx_[o]->credits() << " credits towards leaf " << o << "\n";
    --max_lines;
  }
}

}  // namespace fabric
