#include "model/link/rx_port.h"

#include "model/core/sim_time.h"
#include "model/link/link_receiver.h"
#include "model/link/tx_port.h"

namespace fabric {

RxPort::RxPort(sc_core::sc_module_name name, RxSink& sink, int index, EventQueue& events) : sc_module(name), in("in") {
  events_ = &events;
  sink_ = &sink;
  index_ = index;
  static_assert(sizeof(RxPortHotState) + 2 * sizeof(void*) <= 64, "an arrival must touch one cache line");
  in.bind(*this);
}

RxPort::~RxPort() = default;

void RxPort::set_link_receiver(LinkReceiver receiver) {
  link_receiver_.emplace(std::move(receiver));
  link_layer_ = &*link_receiver_;
}

tlm::tlm_sync_enum RxPort::nb_transport_fw(Payload& payload, tlm::tlm_phase&, sc_core::sc_time& delay) {
  const Picos at = now_ps() + to_ps(delay);
  if (at < last_arrival_) SC_REPORT_FATAL(name(), "link delivered out of order");
  last_arrival_ = at;
  events_->schedule(at, *this, &payload);
  return tlm::TLM_COMPLETED;
}

void RxPort::prefetch(const void* item) const {
  sink_->prefetch_receive(index_, *static_cast<const Payload*>(item));
  if (link_layer_) __builtin_prefetch(link_layer_);  // its first line, the port's second: the receiving window
  if (credit_sink_) credit_sink_->prefetch_state();
}

void RxPort::prefetch_deep(const void* item) const {
  sink_->prefetch_receive_deep(index_, *static_cast<const Payload*>(item));
  if (credit_sink_) {
    credit_sink_->prefetch_path();   // credits may let it send
    credit_sink_->prefetch_retry();  // a link ACK or NAK to owe, or one that arrived
    const Payload& p = *static_cast<const Payload*>(item);
    if (!link_layer_) return;
    if (info_of(p).carries_link_ack)
      credit_sink_->prefetch_link_ack(info_of(p).link_ack);  // its ring index
    else if (info_of(p).kind == MessageKind::control && control_of(p).kind == ControlKind::link_ack)
      credit_sink_->prefetch_link_ack(control_of(p).units);
  }
}

void RxPort::on_wake(void* item) {
  Payload& p = *static_cast<Payload*>(item);
  if (link_layer_ && !link_layer_->admit(p, credit_sink_, now_ps())) return;
  MessageInfo& info = info_of(p);
  if (info.credits > 0 && credit_sink_) {
    credit_sink_->add_credits(info.credits);
    info.credits = 0;
  }
  if (info.kind == MessageKind::control && control_of(p).kind == ControlKind::credit) {
    p.release();  // a standalone credit message carries nothing else
    return;
  }
  sink_->receive(index_, p);
}

}  // namespace fabric
