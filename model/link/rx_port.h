#pragma once
// The receiving end of a link. A link delivers in order, so arrivals wait in
// a deque of (arrival time, payload) with one event for the head: no sorted
// event queue on the per-packet path.
#include <deque>
#include <systemc>

#include "model/core/event_scheduler.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

class RxSink {
 public:
  virtual ~RxSink() = default;
  // Ownership of the payload passes to the sink, which releases it.
  virtual void receive(int rx_index, Payload& payload) = 0;
};

class TxPort;

class RxPort : public sc_core::sc_module, public EventScheduler::Client {
 public:
  FabricTargetSocket<RxPort> in;

  RxPort(sc_core::sc_module_name name, RxSink& sink, int index, EventScheduler& scheduler);
  size_t pending() const { return queue_.size(); }
  // Hop-by-hop credits that arrive on this link (standalone credit messages,
  // or piggybacked on any message) are for the TxPort of the reverse link.
  void set_credit_sink(TxPort& reverse) { credit_sink_ = &reverse; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(Payload& payload, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void on_wake(uint32_t) override;

  struct Arrival {
    Picos at;
    Payload* payload;
  };
  EventScheduler& scheduler_;
  RxSink& sink_;
  TxPort* credit_sink_ = nullptr;
  Picos last_arrival_ = 0;  // kept here: checking order must not touch the queue's memory
  int index_;
  std::deque<Arrival> queue_;
};

}  // namespace fabric
