#pragma once
// A bridge between two QuickRing rings (platforms.md, E14): a thin SystemC
// shell around BridgeProtocol, with a controller on each ring. Each takes a
// frame after the station latency (cut through), like a station, and sends
// by register insertion: transit first, then what the bridge puts on that
// ring. With bridge flow control the tickets it launches beyond are paced
// (TicketPacer: delayed retry and back-off with the bridge's constants),
// their permits at the offered load beyond: the rate the senders' hosts
// made the packets whose vouchers arrive for that ring.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "model/core/circular_queue.h"
#include "model/core/event_queue.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"
#include "model/ring/bridge_protocol.h"
#include "model/ring/ring_frame_store.h"
#include "model/ring/ticket_pacer.h"

namespace fabric {

// From the ring.* keys, which hold the defaults (the permit interval set
// per run by the ring's top).
struct RingBridgeParams {
  Picos latency = 0;
  int buffers = 0;  // a side
  bool flow_control = false;
  ring::PacerParams pacer;    // its delayed retry and back-off, when flow_control
  Picos permit_interval = 0;  // the expected inter-arrival of new crossings at the start
};

class RingBridge final : public sc_core::sc_module, public TxSource, public RxSink, public EventQueue::Client {
 public:
  RingBridge(sc_core::sc_module_name name, ring::BridgeProtocol::Side side0, ring::BridgeProtocol::Side side1,
             const RingBridgeParams& params, ring::RingFrameStore& frames, PayloadPool& pool, EventQueue& events);

  const ring::BridgeProtocol& protocol() const { return protocol_; }
  size_t transit_waiting() const { return transit_[0].size() + transit_[1].size(); }

  TxPort tx0, tx1;  // onto ring of side 0, side 1
  RxPort rx0, rx1;

 private:
  // A frame's header through one side: the wake carries the frame, this
  // client its side.
  struct SideWake final : EventQueue::Client {
    RingBridge* bridge = nullptr;
    int side = 0;
    void on_wake(void* item) override { bridge->take(side, *static_cast<Payload*>(item)); }
  };
  Pull next_data(int tx_index, Picos not_after) override;
  void receive(int rx_index, Payload& payload) override;
  void on_wake(void* item) override;  // a pacer's release
  void take(int side, Payload& payload);
  void serve(Picos now);
  TxPort& tx(int side) { return side == 0 ? tx0 : tx1; }

  ring::BridgeProtocol protocol_;
  RingBridgeParams params_;
  std::vector<ring::TicketPacer> pacers_;  // by side, with flow control
  ring::RingFrameStore& frames_;
  PayloadPool& pool_;
  EventQueue& events_;
  std::array<SideWake, 2> side_wake_;
  std::array<CircularQueue<Payload*, 8>, 2> transit_;
  Picos pacer_wake_at_ = kNever;
  std::vector<ring::BridgeProtocol::Ready> ready_;
  std::vector<ring::BridgeProtocol::Offered> offered_;
  std::vector<ring::Priority> released_;
};

}  // namespace fabric
