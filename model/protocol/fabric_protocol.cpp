#include "model/protocol/fabric_protocol.h"

#include <algorithm>

namespace fabric {

void FabricReceiver::b_transport(Payload&, sc_core::sc_time&) {
  SC_REPORT_FATAL("fabric", "fabric links carry messages by nb_transport_fw only, not b_transport");
}

tlm::tlm_sync_enum FabricSender::nb_transport_bw(Payload&, tlm::tlm_phase&, sc_core::sc_time&) {
  SC_REPORT_FATAL("fabric", "a fabric link answers on the forward path; nb_transport_bw is not used");
  return tlm::TLM_COMPLETED;
}

const char* to_string(ControlKind kind) {
  switch (kind) {
    case ControlKind::request:
      return "request";
    case ControlKind::grant:
      return "grant";
    case ControlKind::ack:
      return "ack";
    case ControlKind::credit:
      return "credit";
    case ControlKind::pause:
      return "pause";
    case ControlKind::cnm:
      return "cnm";
    case ControlKind::cancel:
      return "cancel";
    case ControlKind::link_ack:
      return "link_ack";
    case ControlKind::link_nak:
      return "link_nak";
  }
  return "?";
}

bool try_coalesce(ControlMessage& queued, const ControlMessage& incoming, uint32_t max_request_units) {
  if (queued.kind != incoming.kind || queued.from != incoming.from || queued.to != incoming.to ||
      queued.vl != incoming.vl)
    return false;
  switch (incoming.kind) {
    case ControlKind::ack:  // cumulative: the later one covers both
      queued.units = std::max(queued.units, incoming.units);
      queued.count += incoming.count;
      return true;
    case ControlKind::request:
      // A request is granted as a whole; keep it within one maximal frame so
      // that a grant never needs more egress space than a single jumbo frame.
      if (queued.units + incoming.units > max_request_units) return false;
      [[fallthrough]];
    case ControlKind::grant:
      if (queued.withdraw || incoming.withdraw) return false;  // a shortfall notice stays apart
      // One run of copies: the source tells by it which copies are granted.
      if (incoming.copies.first != queued.copies.last + 1) return false;
      queued.copies.last = incoming.copies.last;
      queued.units += incoming.units;
      queued.count += incoming.count;
      return true;
    case ControlKind::cancel:  // units released add up; a withdrawal names its one copy
      if (queued.withdraw || incoming.withdraw) return false;
      queued.units += incoming.units;
      queued.count += incoming.count;
      return true;
    default:
      return false;
  }
}

}  // namespace fabric
