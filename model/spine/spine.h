#pragma once
// A spine: a shallow cell CIOQ switch, oblivious of Ethernet. Each port has
// an input FIFO and an output queue of buffer_packets; a packet moves from
// input to output when the output has room, waiting inputs are served round
// robin, and every freed input slot returns a credit upstream. Control
// messages bypass the data buffers (they need no credits). Port i faces leaf i.
#include <memory>
#include <ostream>
#include <vector>

#include "model/core/circular_queue.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"
#include "model/spine/spine_params.h"

namespace fabric {

class Spine : public sc_core::sc_module, public RxSink, public TxSource {
 public:
  Spine(sc_core::sc_module_name name, int used_ports, const SpineParams& params, PayloadPool& pool,
        const TxPortParams& leaf_facing, EventQueue& events);

  RxPort& rx(int port) { return *rx_[port]; }
  TxPort& tx(int port) { return *tx_[port]; }

  void receive(int rx_index, Payload& payload) override;
  void prefetch_receive(int rx_index, const Payload& payload) const override;
  void prefetch_receive_deep(int rx_index, const Payload& payload) const override;
  TxSource::Pull next_data(int tx_index, Picos not_after) override;
  void prefetch_next(int tx_index) const override;
  bool wants_wake_after_send(int tx_index) const override { return !ports_[tx_index].output.empty(); }

  uint64_t backlog() const;
  void describe_backlog(std::ostream& out, int max_lines) const;

 private:
  // One port's buffers, together in memory: with the default 16 packets the
  // queues live inside the struct.
  struct Port {
    CircularQueue<Payload*, 16> input;
    CircularQueue<Payload*, 16> output;
    CircularQueue<uint16_t, 8> waiting;  // inputs whose head waits for room in this output
    bool input_waiting = false;          // this input is listed at some output
  };
  void try_forward(int input);

  EventQueue& events_;
  const SpineParams& params_;
  std::vector<std::unique_ptr<RxPort>> rx_;
  std::vector<std::unique_ptr<TxPort>> tx_;
  std::unique_ptr<Port[]> ports_;
  int used_ports_;
};

}  // namespace fabric
