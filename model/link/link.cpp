#include "model/link/link.h"

#include "model/core/sim_time.h"
#include "model/invariants/invariant_broken.h"
#include "model/link/link_census.h"

#include <cmath>
#include <cstdint>
#include <sstream>

namespace fabric {

using sc_core::SC_PS;
using sc_core::sc_time;

Link::Link(sc_core::sc_module_name name, const LinkParams& params)
    : LinkRateWindowState(params.rate_gbps), sc_module(name), in("in"), out("out") {
  ps_per_byte_q24_ = static_cast<uint64_t>(std::llround(8000.0 / params.rate_gbps * (1 << 24)));
  propagation_time_ = params.propagation;
  if (params.overhead_bytes > UINT16_MAX || params.lead_bytes > UINT16_MAX)
    SC_REPORT_FATAL(this->name(), "a link's per-message overhead and lead are at most 65535 bytes");
  overhead_bytes_ = static_cast<uint16_t>(params.overhead_bytes);
  lead_bytes_ = static_cast<uint16_t>(params.lead_bytes);
  concurrent_header_ = params.concurrent_header;
  static_assert(sizeof(LinkHotState) + sizeof(void*) <= 64, "a message must touch one cache line of a Link");
  static_assert(sizeof(LinkRateWindowState) <= 64, "the line-rate window fills at most the next line");
  in.bind(*this);
  out.bind(*this);
}

void Link::end_of_elaboration() { receiver_ = out.get_interface(0); }

void Link::break_line_rate(Picos t, const std::string& numbers) const {
  break_invariant(invariant::kLineRate, name(), t, numbers);
}

tlm::tlm_sync_enum Link::nb_transport_fw(Payload& payload, tlm::tlm_phase& phase, sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) SC_REPORT_FATAL(name(), "link accepts only BEGIN_REQ");
  const Picos start = now_ps() + to_ps(delay);
  if (start < free_at_) {
    std::ostringstream msg;
    msg << "a message started at " << start << " ps while the link is busy until " << free_at_ << " ps";
    break_line_rate(start, msg.str());
  }
  const uint32_t wire_bytes = info_of(payload).wire_bytes;
  const Picos serialization_ps = serialization(wire_bytes);
  if (LineRateWindow::opens(messages_ + 1)) rate_window_.open(start, bytes());
  free_at_ = start + serialization_ps;
  ++messages_;
  payload_bytes_ += wire_bytes;
  if (info_of(payload).kind != MessageKind::control) data_bytes_ += wire_bytes;
  if (LineRateWindow::closes(messages_) && rate_window_.close(free_at_, bytes()) == LineRateWindow::Verdict::broken)
    break_line_rate(start, rate_window_.describe());
  LinkCensus::count(payload);

  delay += from_ps(serialization_ps);  // END_REQ: when the sender may start its next message
  tlm::tlm_phase fwd_phase = tlm::BEGIN_REQ;
  sc_time fwd_delay = delay + propagation_time_;
  if (concurrent_header_ && info_of(payload).kind == MessageKind::frame) {
    // Delivered at its first byte, after the lead (Ethernet: the preamble
    // and start delimiter).
    const Picos first_byte = start + bytes_time(lead_bytes_) + to_ps(propagation_time_);
    frame_of(payload).arrival = {first_byte, first_byte + bytes_time(wire_bytes)};
    fwd_delay = from_ps(first_byte - now_ps());
  }
  receiver_->nb_transport_fw(payload, fwd_phase, fwd_delay);

  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

}  // namespace fabric
