#pragma once
// Where third-party TLM-2.0 IP that speaks the generic payload (the base
// protocol) meets the fabric's links, whose payload is the fabric's own
// message (fabric_protocol.h). Two adapters, one per direction:
//
// ToGenericPayload: a fabric receiver (bind a Link's `out` to its `in`)
// that passes every message on as a generic payload on a standard
// initiator socket (`out`):
//   command WRITE; address: the message's address; data: `wire_bytes`
//   bytes (the model carries no payload bytes: zeros); streaming width the
//   length; no byte enables; the FabricMessage extension pointing at the
//   message; BEGIN_REQ with the link's annotated delay (the arrival).
// It holds the message until the transaction completes (any base-protocol
// path: TLM_COMPLETED, END_REQ then BEGIN_RESP, by the return or the
// backward path), then releases it.
//
// FromGenericPayload: a standard target socket (`in`) whose writes leave
// on a fabric initiator socket (`out`: bind it to a Link's `in` or to a
// fabric receiver). A generic payload that carries the FabricMessage
// extension sends that very message on (a round trip through third-party
// IP loses nothing); any other write becomes a frame of `data_length`
// bytes with the payload's address. It answers TLM_COMPLETED with
// TLM_OK_RESPONSE, the delay extended to when the link is free again (the
// link's END_REQ): an initiator that honours the annotated time never
// sends while the link is busy. Reads are answered
// TLM_COMMAND_ERROR_RESPONSE.
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "model/protocol/fabric_protocol.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

// The fabric message a generic payload stands for.
struct FabricMessage : tlm::tlm_extension<FabricMessage> {
  Payload* message = nullptr;
  tlm_extension_base* clone() const override { return new FabricMessage(*this); }
  void copy_from(const tlm_extension_base& other) override {
    message = static_cast<const FabricMessage&>(other).message;
  }
};

class ToGenericPayload : public FabricReceiver, public sc_core::sc_module, private tlm::tlm_mm_interface {
 public:
  explicit ToGenericPayload(sc_core::sc_module_name name);
  ~ToGenericPayload() override;

  tlm::tlm_sync_enum nb_transport_fw(Payload& message, tlm::tlm_phase& phase, sc_core::sc_time& delay) override;
  size_t in_flight() const { return all_.size() - free_.size(); }

  FabricTargetSocket in;
  tlm_utils::simple_initiator_socket<ToGenericPayload> out;

 private:
  struct Transaction;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void free(tlm::tlm_generic_payload* gp) override;  // the last release(): the message goes too
  std::vector<std::unique_ptr<Transaction>> all_;
  std::vector<Transaction*> free_;
};

class FromGenericPayload : public FabricSender, public sc_core::sc_module {
 public:
  FromGenericPayload(sc_core::sc_module_name name, PayloadPool& pool);

  tlm_utils::simple_target_socket<FromGenericPayload> in;
  FabricInitiatorSocket out;

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  PayloadPool& pool_;
};

}  // namespace fabric
