#pragma once
// The receiving end of a link. A link delivers in order and the fabric's
// event queue serves equal times in the order they were scheduled, so each
// arrival is simply an entry of that queue carrying its message: no queue
// at the port, no sorting.
#include <optional>
#include <systemc>

#include "model/core/event_queue.h"
#include "model/link/link_receiver.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

class RxSink {
 public:
  virtual ~RxSink() = default;
  // Ownership of the payload passes to the sink, which releases it.
  virtual void receive(int rx_index, Payload& payload) = 0;
  // The payload will arrive soon: prefetch what receive() reads.
  virtual void prefetch_receive(int /*rx_index*/, const Payload& /*payload*/) const {}
  // A stage later: what prefetch_receive() brought in may be read to
  // prefetch one level further (the link a forwarded message will take).
  virtual void prefetch_receive_deep(int /*rx_index*/, const Payload& /*payload*/) const {}
};

class TxPort;

// What an arrival touches, in one cache line with the two interfaces it
// comes through (a base placed before sc_module, see RxPort).
struct RxPortHotState {
  EventQueue* events_ = nullptr;
  RxSink* sink_ = nullptr;
  TxPort* credit_sink_ = nullptr;
  LinkReceiver* link_layer_ = nullptr;  // soft errors and link retry; null on a perfect link
  Picos last_arrival_ = 0;
  int index_ = 0;
};

// The link layer, when the link has one, in the port's next cache lines:
// an arrival's prefetch asks for them without reading a pointer first.
struct RxPortLinkLayer {
  std::optional<LinkReceiver> link_receiver_;
};

// Base order is deliberate: the interfaces the link and the scheduler call
// and the state they need come first, before the 232-byte sc_module, so an
// arrival touches one cache line of the port (and the next, with a link
// layer).
class alignas(64) RxPort : public FabricReceiver,
                           public EventQueue::Client,
                           private RxPortHotState,
                           private RxPortLinkLayer,
                           public sc_core::sc_module {
 public:
  RxPort(sc_core::sc_module_name name, RxSink& sink, int index, EventQueue& events);
  // Hop-by-hop credits that arrive on this link (standalone credit messages,
  // or piggybacked on any message) are for the TxPort of the reverse link.
  void set_credit_sink(TxPort& reverse) { credit_sink_ = &reverse; }
  // Soft errors on the link, and link retry if its sender numbers messages.
  void set_link_receiver(LinkReceiver receiver);
  const LinkReceiver* link_receiver() const { return link_layer_; }
  ~RxPort() override;

  // A message is about to be sent to this port: prefetch what its arrival's
  // scheduling writes (the port's line must be in the cache).
  void prefetch_arrival() const { events_->prefetch_schedule(); }

  FabricTargetSocket in;

  tlm::tlm_sync_enum nb_transport_fw(Payload& payload, tlm::tlm_phase& phase, sc_core::sc_time& delay) override;

 private:
  void on_wake(void* item) override;
  void prefetch(const void* item) const override;
  void prefetch_deep(const void* item) const override;
};

}  // namespace fabric
