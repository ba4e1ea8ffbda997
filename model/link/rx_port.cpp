#include "model/link/rx_port.h"

#include "model/core/sim_time.h"
#include "model/link/tx_port.h"

namespace fabric {

RxPort::RxPort(sc_core::sc_module_name name, RxSink& sink, int index, EventScheduler& scheduler)
    : sc_module(name), in("in"), scheduler_(scheduler), sink_(sink), index_(index) {
  in.register_nb_transport_fw(this, &RxPort::nb_transport_fw);
}

tlm::tlm_sync_enum RxPort::nb_transport_fw(Payload& payload, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  const Picos at = now_ps() + to_ps(delay);
  if (at < last_arrival_) SC_REPORT_FATAL(name(), "link delivered out of order");
  last_arrival_ = at;
  queue_.push_back({at, &payload});
  if (queue_.size() == 1) scheduler_.schedule(at, *this);
  return tlm::TLM_COMPLETED;
}

void RxPort::on_wake(uint32_t) {
  const Picos now = now_ps();
  while (!queue_.empty() && queue_.front().at <= now) {
    Payload* p = queue_.front().payload;
    queue_.pop_front();
    MessageInfo& info = info_of(*p);
    if (info.credits > 0 && credit_sink_) {
      credit_sink_->add_credits(info.credits);
      info.credits = 0;
    }
    if (info.kind == MessageKind::control && control_of(*p).kind == ControlKind::credit) {
      p->release();  // a standalone credit message carries nothing else
      continue;
    }
    sink_.receive(index_, *p);
  }
  if (!queue_.empty()) scheduler_.schedule(queue_.front().at, *this);
}

}  // namespace fabric
