#pragma once
// An InfiniBand switch of the fat tree (platforms.md, E13): a thin SystemC
// shell around its forwarding tables and per-output FcfsQueue.
//
// One packet of buffer per input and per output port. A packet is routed
// `routing` after it arrives: at its first byte with virtual cut-through
// (the link delivers it then), at its last with store and forward. Routing
// gives its output ports: the linear forwarding table's for a unicast LID,
// the group's multicast entry for a multicast LID (for OpenSM's shared trees
// without the port it came in on). Each copy moves to its output's buffer
// when that is free, first come first served, ties to the lower input port
// (asynchronous replication: each copy on its own); the output sends it
// when the next device has room (credit flow control, one packet). The
// input buffer is free, and its credit goes back upstream, once the last
// copy has moved out and the packet's last byte is in.
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "model/core/event_queue.h"
#include "model/ibft/fcfs_queue.h"
#include "model/ibft/forwarding_tables.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

// From the ibft.* keys, which hold the defaults.
struct IbSwitchParams {
  int ports = 0;
  Picos routing = 0;          // input to output: look-up, replication, arbitration, start-up
  bool shared_trees = false;  // OpenSM: a multicast packet never goes back where it came from
  uint32_t credit_bytes = 0;  // a flow-control update's bytes on the wire
};

// The TxPort settings of every InfiniBand port: one packet of credit.
TxPortParams ib_port_params(uint32_t credit_bytes);

class IbSwitch final : public sc_core::sc_module, public TxSource, public RxSink, public EventQueue::Client {
 public:
  IbSwitch(sc_core::sc_module_name name, int index, const IbSwitchParams& params, const ForwardingTables& tables,
           PayloadPool& pool, EventQueue& events);

  TxPort& tx(int port) { return *tx_[static_cast<size_t>(port - 1)]; }  // ports 1..m
  RxPort& rx(int port) { return *rx_[static_cast<size_t>(port - 1)]; }
  // Packets held in its input and output buffers.
  uint64_t held() const;
  uint64_t copies() const { return copies_; }

 private:
  struct Input {
    Payload* packet = nullptr;
    PortSet pending = 0;  // outputs its copies still have to reach
    Picos tail = 0;       // when its last byte is in
    int port = 0;
    bool occupied = false;  // from the packet's arrival until its buffer is free
    bool tail_wake = false;
  };
  struct Output {
    Payload* packet = nullptr;
    bool on_wire = false;
    FcfsQueue waiting;
  };

  Pull next_data(int tx_index, Picos not_after) override;
  void transmission_done(int tx_index) override;
  void receive(int rx_index, Payload& payload) override;
  void on_wake(void* item) override;
  void route(Input& in);
  void arbitrate(int port);
  void move(Input& in, int port);
  void free_if_done(Input& in);

  int index_;
  IbSwitchParams params_;
  const ForwardingTables& tables_;
  PayloadPool& pool_;
  EventQueue& events_;
  std::vector<std::unique_ptr<TxPort>> tx_;
  std::vector<std::unique_ptr<RxPort>> rx_;
  std::vector<Input> inputs_;    // by port - 1
  std::vector<Output> outputs_;  // by port - 1
  // What a wake is for: an input's routing, an input's last byte, or an
  // output's arbitration; items_[kind * ports + port - 1].
  struct Wake {
    enum Kind { route, tail, arbitrate } kind;
    int port;
  };
  void* wake(Wake::Kind kind, int port) { return &items_[static_cast<size_t>(kind * params_.ports + port - 1)]; }
  std::vector<Wake> items_;
  uint64_t copies_ = 0;
};

}  // namespace fabric
