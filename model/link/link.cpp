#include "model/link/link.h"

#include "model/core/sim_time.h"

#include <cmath>
#include <sstream>

namespace fabric {

using sc_core::sc_time;
using sc_core::SC_PS;

Link::Link(sc_core::sc_module_name name, const LinkParams& params)
    : sc_module(name), ps_per_byte_(8000.0 / params.rate_gbps), params_(params), in("in"), out("out") {
  in.bind(*this);
  out.bind(*this);
}

void Link::end_of_elaboration() { receiver_ = out.get_interface(0); }

sc_time Link::serialization(uint32_t wire_bytes) const {
  return sc_time::from_value(static_cast<sc_dt::uint64>(std::llround((wire_bytes + params_.overhead_bytes) * ps_per_byte_)));
}

tlm::tlm_sync_enum Link::nb_transport_fw(Payload& payload, tlm::tlm_phase& phase, sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) SC_REPORT_FATAL(name(), "link accepts only BEGIN_REQ");
  const Picos start = now_ps() + to_ps(delay);
  if (start < free_at_) {
    std::ostringstream msg;
    msg << "message sent at " << start << " ps while the link is busy until " << free_at_ << " ps";
    SC_REPORT_FATAL(name(), msg.str().c_str());
  }
  const uint32_t bytes = info_of(payload).wire_bytes;
  const sc_time ser = serialization(bytes);
  free_at_ = start + to_ps(ser);
  busy_ += ser;
  ++messages_;
  bytes_ += bytes + params_.overhead_bytes;

  tlm::tlm_phase fwd_phase = tlm::BEGIN_REQ;
  sc_time fwd_delay = delay + ser + params_.propagation;
  receiver_->nb_transport_fw(payload, fwd_phase, fwd_delay);

  phase = tlm::END_REQ;
  delay += ser;
  return tlm::TLM_UPDATED;
}

}  // namespace fabric
