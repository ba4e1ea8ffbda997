#pragma once
// A point-to-point cable: serialization at the link rate, then propagation.
// Ethernet links count 20 B of preamble, start delimiter and inter-frame gap
// per message. Delivery is in order. The Link holds no queue: its sender
// (a TxPort) sends only when the END_REQ delay of the previous message has
// passed, which the Link checks.
#include <systemc>

#include "model/protocol/fabric_protocol.h"

namespace fabric {

struct LinkParams {
  double rate_gbps = 100;
  sc_core::sc_time propagation = sc_core::SC_ZERO_TIME;
  uint32_t overhead_bytes = 0;  // 20 for Ethernet, 0 for fabric links
};

class Link : public sc_core::sc_module, public FabricReceiver, public FabricSender {
 public:
  Link(sc_core::sc_module_name name, const LinkParams& params);

  // Time on the wire of a message of wire_bytes (plus the link's overhead).
  Picos serialization(uint32_t wire_bytes) const {
    return static_cast<Picos>(((wire_bytes + params_.overhead_bytes) * ps_per_byte_q24_ + (1u << 23)) >> 24);
  }
  uint64_t messages() const { return messages_; }
  uint64_t bytes() const { return bytes_; }
  Picos busy_time() const { return busy_; }

  tlm::tlm_sync_enum nb_transport_fw(Payload& payload, tlm::tlm_phase& phase, sc_core::sc_time& delay) override;

 private:
  void end_of_elaboration() override;

  // The per-message state first, together; the sockets after it.
  tlm::tlm_fw_transport_if<FabricProtocol>* receiver_ = nullptr;  // what `out` is bound to
  Picos free_at_ = 0;
  uint64_t ps_per_byte_q24_;  // picoseconds per byte in 40.24 fixed point
  uint64_t messages_ = 0;
  uint64_t bytes_ = 0;
  Picos busy_ = 0;
  LinkParams params_;
  Picos propagation_;

 public:
  FabricTargetSocket in;
  FabricInitiatorSocket out;
};

}  // namespace fabric
