#pragma once
// A spine: a shallow cell CIOQ switch, oblivious of Ethernet. Each port has
// an input FIFO and an output queue of buffer_packets; a packet moves from
// input to output when the output has room, waiting inputs are served round
// robin, and every freed input slot returns a credit upstream. Control
// messages bypass the data buffers (they need no credits). Port i faces leaf i.
#include <deque>
#include <memory>
#include <ostream>
#include <vector>

#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"
#include "model/spine/spine_params.h"

namespace fabric {

class Spine : public sc_core::sc_module, public RxSink, public TxSource {
 public:
  Spine(sc_core::sc_module_name name, int used_ports, const SpineParams& params, PayloadPool& pool,
        const TxPortParams& leaf_facing, EventScheduler& scheduler);

  RxPort& rx(int port) { return *rx_[port]; }
  TxPort& tx(int port) { return *tx_[port]; }

  void receive(int rx_index, Payload& payload) override;
  TxSource::Pull next_data(int tx_index, Picos not_after) override;

  uint64_t backlog() const;
  void describe_backlog(std::ostream& out, int max_lines) const;

 private:
  void try_forward(int input);

  EventScheduler& scheduler_;
  const SpineParams& params_;
  std::vector<std::unique_ptr<RxPort>> rx_;
  std::vector<std::unique_ptr<TxPort>> tx_;
  std::vector<std::deque<Payload*>> input_;
  std::vector<std::deque<Payload*>> output_;
  std::vector<std::deque<int>> waiting_;  // per output: inputs whose head waits for room
  std::vector<bool> input_waiting_;
};

}  // namespace fabric
