#pragma once
// An InfiniBand host channel adapter of the fat tree (platforms.md, E13): a
// thin SystemC shell that sends its packets back to back from a start time
// (each when the switch's input buffer has room: one packet of credit), and
// takes every packet that reaches it, recording the delivery when its last
// byte is in (giving the credit back at once: the host drains at line rate).
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "model/core/circular_queue.h"
#include "model/core/event_queue.h"
#include "model/ibft/host_adapter_observer.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"
#include "model/recording/received_totals.h"

namespace fabric {

struct HostPacket {
  FrameId id{};
  FlowId flow{};
  uint32_t bytes = 0;
  int lid = 0;  // a unicast LID, or kFirstMulticastLid + the group
};

class HostAdapter final : public sc_core::sc_module, public TxSource, public RxSink, public EventQueue::Client {
 public:
  HostAdapter(sc_core::sc_module_name name, int pid, uint32_t credit_bytes, PayloadPool& pool, EventQueue& events);
  // Who hears of each packet sent and delivered (a HostAdapterProbe), or null.
  void set_observer(HostAdapterObserver* observer) { observer_ = observer; }
  // The packets to send, in order, from `start` on.
  void send(Picos start, const std::vector<HostPacket>& packets);

  uint64_t sent() const { return sent_; }
  uint64_t delivered() const { return received_.frames(); }
  size_t unsent() const { return queue_.size(); }
  Picos last_delivery() const { return last_delivery_; }
  int pid() const { return pid_; }
  std::vector<SubflowSummary> received_summaries() const { return received_.summaries(); }
  // End of run: packets still queued are told to the observer as never sent.
  void finish();

  TxPort tx;
  RxPort rx;

 private:
  Pull next_data(int tx_index, Picos not_after) override;
  void receive(int rx_index, Payload& payload) override;
  void on_wake(void* item) override;  // the start (no item), or a packet's last byte
  void deliver(Payload& payload, Picos t);

  int pid_;
  PayloadPool& pool_;
  HostAdapterObserver* observer_ = nullptr;
  EventQueue& events_;
  Picos start_ = 0;
  CircularQueue<HostPacket, 8> queue_;
  uint64_t sent_ = 0;
  Picos last_delivery_ = 0;
  ReceivedTotals received_;
};

}  // namespace fabric
