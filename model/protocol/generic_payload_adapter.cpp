#include "model/protocol/generic_payload_adapter.h"

#include "model/protocol/ethernet_frame.h"

namespace fabric {

// A generic payload with its data buffer and its extension, reused.
struct ToGenericPayload::Transaction {
  // The extension, found again by the memory manager's free().
  struct Held : FabricMessage {
    Transaction* owner = nullptr;
  };
  explicit Transaction(tlm::tlm_mm_interface* mm) : gp(mm) {
    message.owner = this;
    gp.set_extension(&message);
  }
  ~Transaction() { gp.clear_extension(&message); }  // a member, not a heap object
  tlm::tlm_generic_payload gp;
  Held message;
  std::vector<unsigned char> data;
};

ToGenericPayload::ToGenericPayload(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
  in.bind(*this);
  out.register_nb_transport_bw(this, &ToGenericPayload::nb_transport_bw);
}

ToGenericPayload::~ToGenericPayload() = default;

tlm::tlm_sync_enum ToGenericPayload::nb_transport_fw(Payload& message, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) SC_REPORT_FATAL(name(), "a fabric link delivers by BEGIN_REQ only");
  if (free_.empty()) {
    tlm::tlm_mm_interface* mm = this;
    all_.push_back(std::make_unique<Transaction>(mm));
    free_.push_back(all_.back().get());
  }
  Transaction& t = *free_.back();
  free_.pop_back();
  const uint32_t bytes = info_of(message).wire_bytes;
  t.data.assign(bytes, 0);
  t.message.message = &message;
  tlm::tlm_generic_payload& gp = t.gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(message.get_address());
  gp.set_data_ptr(t.data.data());
  gp.set_data_length(bytes);
  gp.set_streaming_width(bytes);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_byte_enable_length(0);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  gp.acquire();
  tlm::tlm_phase gp_phase = tlm::BEGIN_REQ;
  sc_core::sc_time gp_delay = delay;
  const tlm::tlm_sync_enum status = out->nb_transport_fw(gp, gp_phase, gp_delay);
  if (status == tlm::TLM_COMPLETED) {
    gp.release();
  } else if (status == tlm::TLM_UPDATED && gp_phase == tlm::BEGIN_RESP) {
    tlm::tlm_phase end = tlm::END_RESP;
    sc_core::sc_time end_delay = gp_delay;
    out->nb_transport_fw(gp, end, end_delay);
    gp.release();
  }  // otherwise (TLM_ACCEPTED, or END_REQ) the response comes by nb_transport_bw
  phase = tlm::END_REQ;
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum ToGenericPayload::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                     sc_core::sc_time&) {
  if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
  if (phase != tlm::BEGIN_RESP) SC_REPORT_FATAL(name(), "a target sent a phase other than END_REQ or BEGIN_RESP");
  gp.release();
  return tlm::TLM_COMPLETED;
}

void ToGenericPayload::free(tlm::tlm_generic_payload* gp) {
  Transaction& t = *static_cast<Transaction::Held*>(gp->get_extension<FabricMessage>())->owner;
  t.message.message->release();
  t.message.message = nullptr;
  free_.push_back(&t);
}

FromGenericPayload::FromGenericPayload(sc_core::sc_module_name name, PayloadPool& pool)
    : sc_module(name), in("in"), out("out"), pool_(pool) {
  in.register_nb_transport_fw(this, &FromGenericPayload::nb_transport_fw);
  out.bind(*this);
}

tlm::tlm_sync_enum FromGenericPayload::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                       sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP: nothing more to do
  if (!gp.is_write()) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    phase = tlm::BEGIN_RESP;
    return tlm::TLM_COMPLETED;
  }
  Payload* message;
  if (FabricMessage* carried = gp.get_extension<FabricMessage>(); carried && carried->message) {
    message = carried->message;
    message->acquire();  // the generic payload's side keeps its hold until it completes
  } else {
    FrameHeader header;
    header.bytes = gp.get_data_length();
    message = &acquire_frame(pool_, header, 0);
    message->set_address(gp.get_address());
  }
  tlm::tlm_phase fabric_phase = tlm::BEGIN_REQ;
  out->nb_transport_fw(*message, fabric_phase, delay);  // a Link adds its serialization: END_REQ
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

}  // namespace fabric
