#pragma once
// A point-to-point cable: serialization at the link rate, then propagation.
// Ethernet links count 20 B of preamble, start delimiter and inter-frame gap
// per message. Delivery is in order. The Link holds no queue: its sender
// (a TxPort) sends only when the END_REQ delay of the previous message has
// passed, which the Link checks.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "model/core/sim_time.h"
#include "model/invariants/line_rate_window.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

// Preamble and start delimiter: what arrives before a frame's first byte.
constexpr uint32_t kPreambleBytes = 8;

struct LinkParams {
  double rate_gbps = 100;
  sc_core::sc_time propagation = sc_core::SC_ZERO_TIME;
  uint32_t overhead_bytes = 0;  // 20 for Ethernet, 0 for fabric links
  // The frame's header travels beside its payload (the CNA-leaf link): a
  // frame is delivered when its first byte arrives, carrying when its first
  // and last bytes arrive (EthernetFrame::arrival). Other messages, and
  // every message of a link without it, are delivered at their last byte.
  bool concurrent_header = false;
  // With concurrent_header: the bytes that arrive before the receiver sees
  // the frame (Ethernet's preamble and start delimiter; 0 on a link whose
  // packets carry their header in their first byte, as InfiniBand's).
  uint32_t lead_bytes = kPreambleBytes;
};

// What a message touches, kept in one cache line with the receiving
// interface's vtable pointer: a base placed before sc_module (see Link).
struct LinkHotState {
  tlm::tlm_fw_transport_if<FabricProtocol>* receiver_ = nullptr;  // what `out` is bound to
  Picos free_at_ = 0;
  sc_core::sc_time propagation_time_;
  uint64_t messages_ = 0;
  uint64_t payload_bytes_ = 0;    // wire bytes of the messages, without the per-message overhead
  uint64_t ps_per_byte_q24_ = 0;  // picoseconds per byte in 40.24 fixed point
  uint16_t overhead_bytes_ = 0;
  uint16_t lead_bytes_ = 0;
  bool concurrent_header_ = false;
};

// Base order is deliberate: the interface the sender calls and the state it
// needs come first, so a message costs the Link one cache line rather than
// three behind the 232-byte sc_module.
// The line-rate window (model/invariants/), in the cache line after the hot
// state: the Link's 128 B alignment keeps the two an adjacent-line pair, so
// the check touches no line of its own.
// Beside it, the wire bytes of data messages (frames and packets), without
// the per-message overhead: what a pre-run bound on a link's data is
// checked against.
struct LinkRateWindowState {
  explicit LinkRateWindowState(double rate_gbps) : rate_window_(rate_gbps) {}
  LineRateWindow rate_window_;
  uint64_t data_bytes_ = 0;
};

class alignas(128) Link : public FabricReceiver,
                          private LinkHotState,
                          private LinkRateWindowState,
                          public sc_core::sc_module,
                          public FabricSender {
 public:
  Link(sc_core::sc_module_name name, const LinkParams& params);

  // Time on the wire of a message of wire_bytes (plus the link's overhead).
  Picos serialization(uint32_t wire_bytes) const {
    return static_cast<Picos>(((wire_bytes + overhead_bytes_) * ps_per_byte_q24_ + (1u << 23)) >> 24);
  }
  // Time on the wire of `bytes`, without the link's overhead.
  Picos bytes_time(uint32_t bytes) const { return static_cast<Picos>((bytes * ps_per_byte_q24_ + (1u << 23)) >> 24); }
  // What the link delivers to (valid once bound).
  const void* far_end() { return out.get_interface(0); }
  uint64_t messages() const { return messages_; }
  uint64_t bytes() const { return payload_bytes_ + messages_ * overhead_bytes_; }
  uint64_t data_bytes() const { return data_bytes_; }
  // Time the link spent sending up to `t` (without the per-message
  // rounding): a message still on the wire at `t` counts up to `t`.
  Picos busy_time(Picos t) const {
    const Picos sent = static_cast<Picos>((bytes() * ps_per_byte_q24_) >> 24);
    return std::max<Picos>(0, sent - std::max<Picos>(0, free_at_ - t));
  }

  // When the last message sent so far has arrived at the far end.
  Picos quiet_from() const { return free_at_ + to_ps(propagation_time_); }

  tlm::tlm_sync_enum nb_transport_fw(Payload& payload, tlm::tlm_phase& phase, sc_core::sc_time& delay) override;
  // Invariant checks made so far: each message's start after the last one's
  // end, and each window of the line rate (LineRateWindow).
  uint64_t invariants_checked() const { return messages_ + rate_window_.windows(); }

 private:
  void end_of_elaboration() override;
  [[noreturn]] void break_line_rate(Picos t, const std::string& numbers) const;

 public:
  FabricTargetSocket in;
  FabricInitiatorSocket out;
};

// The invariant checks of a platform's links.
inline uint64_t invariants_checked(const std::vector<std::unique_ptr<Link>>& links) {
  uint64_t n = 0;
  for (const auto& l : links) n += l->invariants_checked();
  return n;
}

}  // namespace fabric
