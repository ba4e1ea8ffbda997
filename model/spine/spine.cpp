#include "model/spine/spine.h"

#include "model/core/sim_time.h"

namespace fabric {

Spine::Spine(sc_core::sc_module_name name, int used_ports, const SpineParams& params, PayloadPool& pool,
             const TxPortParams& leaf_facing, EventScheduler& scheduler)
    : sc_module(name), scheduler_(scheduler), params_(params), input_(used_ports), output_(used_ports), waiting_(used_ports),
      input_waiting_(used_ports, false) {
  for (int i = 0; i < used_ports; ++i) {
    rx_.push_back(std::make_unique<RxPort>(("rx" + std::to_string(i)).c_str(), *this, i, scheduler_));
    tx_.push_back(std::make_unique<TxPort>(("tx" + std::to_string(i)).c_str(), *this, i, pool, leaf_facing, scheduler_));
    rx_.back()->set_credit_sink(*tx_.back());
  }
}

void Spine::receive(int i, Payload& payload) {
  const MessageInfo& info = info_of(payload);
  if (info.kind == MessageKind::packet) {
    if (input_[i].size() >= static_cast<size_t>(params_.buffer_packets))
      SC_REPORT_FATAL(name(), "input buffer overflow: the upstream leaf sent without credit");
    input_[i].push_back(&payload);
    if (input_[i].size() == 1) try_forward(i);
    return;
  }
  const ControlMessage& c = control_of(payload);
  info_of(payload).ready_at = now_ps() + to_ps(params_.traversal);
  tx_[raw(c.to_leaf)]->send_control(payload);
}

void Spine::try_forward(int i) {
  const Picos ready = now_ps() + to_ps(params_.traversal);
  while (!input_[i].empty()) {
    Payload* head = input_[i].front();
    const int o = static_cast<int>(raw(packet_of(*head).target_leaf));
    if (output_[o].size() >= static_cast<size_t>(params_.buffer_packets)) {
      if (!input_waiting_[i]) {
        input_waiting_[i] = true;
        waiting_[o].push_back(i);
      }
      return;
    }
    input_[i].pop_front();
    info_of(*head).ready_at = ready;
    output_[o].push_back(head);
    tx_[i]->return_credits(1);
    tx_[o]->kick();
  }
}

TxSource::Pull Spine::next_data(int o, Picos not_after) {
  if (output_[o].empty()) return {};
  Payload* head = output_[o].front();
  const Picos ready = info_of(*head).ready_at;
  if (ready > not_after) return {nullptr, ready};
  output_[o].pop_front();
  if (!waiting_[o].empty()) {  // the freed slot goes to the longest-waiting input
    const int i = waiting_[o].front();
    waiting_[o].pop_front();
    input_waiting_[i] = false;
    try_forward(i);
  }
  return {head, kNever};
}

uint64_t Spine::backlog() const {
  uint64_t n = 0;
  for (const auto& q : input_) n += q.size();
  for (const auto& q : output_) n += q.size();
  return n;
}

void Spine::describe_backlog(std::ostream& out, int max_lines) const {
  for (size_t o = 0; o < output_.size() && max_lines > 0; ++o) {
    if (output_[o].empty() && input_[o].empty()) continue;
    out << "  " << name() << " port " << o << ": input " << input_[o].size() << " packets, output "
        << output_[o].size() << " packets, " << tx_[o]->credits() << " credits towards leaf " << o << "\n";
    --max_lines;
  }
}

}  // namespace fabric
