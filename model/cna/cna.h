#pragma once
// A converged network adapter: sends the frames of its server's flows from
// 8 priority queues (strict priority or round robin) at the link rate, obeys
// per-priority PAUSE, and reports every frame it sends and receives to its
// observer (CnaObserver, which CnaProbe records). A flow that
// received a QCN CNM gets a rate limiter (a ReactionPoint) with a queue of
// its own, served in round robin with its priority's queue while its rate
// allows (cna_qcn.cpp).
#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/cna/cna_observer.h"
#include "model/cna/cna_params.h"
#include "model/cna/e2e_transport.h"
#include "model/cna/flow_round_robin.h"
#include "model/cna/frame_source.h"
#include "model/cna/queued_frame.h"
#include "model/core/circular_queue.h"
#include "model/invariants/delivery_bound.h"
#include "model/invariants/delivery_order.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"
#include "model/qcn/reaction_point.h"
#include "model/recording/received_totals.h"

namespace fabric {

class Cna : public sc_core::sc_module, public RxSink, public TxSource {
 private:
  EventQueue& events_;  // declared first: the ports use it

 public:
  RxPort rx;
  TxPort tx;

  Cna(sc_core::sc_module_name name, PortId port, const CnaParams& params, PayloadPool& pool, EventQueue& events);

  void attach(std::unique_ptr<FrameSource> source);
  // Who hears of each frame sent and delivered, retransmission and rate
  // change (a CnaProbe), or null.
  void set_observer(CnaObserver* observer) { observer_ = observer; }
  // Told of every job frame received here (null: none; its owner keeps it).
  void listen(MessageListener* listener) { listener_ = listener; }

  void receive(int rx_index, Payload& payload) override;
  TxSource::Pull next_data(int tx_index, Picos not_after) override;

  // End of run: frames still queued are told to the observer as never sent
  // (a probe then records the per-subflow and transport totals).
  void finish();

  PortId port() const { return port_; }
  uint64_t frames_sent() const { return frames_sent_; }
  uint64_t frames_received() const { return received_.frames(); }
  // Checks every copy delivered here against the zero-load bound (its owner
  // keeps it; null: no check).
  void check_deliveries(const DeliveryBound* bound) { bound_ = bound; }
  uint64_t invariants_checked() const { return invariants_checked_; }
  uint64_t bytes_received() const { return received_.bytes(); }
  size_t queued() const;
  // Frames in rate limiters' queues (a limited flow's frames wait for their time).
  size_t held_by_rate_limiters() const;
  bool paused(int priority) const { return paused_[priority]; }
  // Per flow received here, in flow id order.
  std::vector<SubflowSummary> received_summaries() const;
  // The end-to-end transport; null when cna.e2e.retransmit is off.
  const E2eTransport* transport() const { return transport_.get(); }

 private:
  SC_HAS_PROCESS(Cna);
  void check_delivery(const EthernetFrame& f, Picos now);
  void check_order(const EthernetFrame& f, Picos now);  // DeliveryOrder
  using FrameQueue = CircularQueue<QueuedFrame, 4>;     // a priority's or a rate limiter's frames
  struct Limiter {
    ReactionPoint rp;
    FrameQueue queue;
    Picos eligible_at = 0;  // the rate's spacing after its last frame
    double reported_gbps;   // the rate last recorded
  };
  struct PendingCnm {
    FlowId flow;
    uint8_t fb;
    Picos at;
  };
  void start();
  // Moves the frames due into the transmit queues, as far as they have room.
  void generate(Picos now);
  bool has_frame_due(size_t source, Picos now) const;  // due now, or held back by a full queue
  void admit_one(size_t source, FrameQueue& queue, Picos now);
  int pick_priority(Picos now) const;
  bool has_ready(int priority, Picos now) const;
  // The queue the next frame of `priority` comes from: -1 its priority
  // queue, else the limited source's index. Advances the round robin.
  int take_turn(int priority, Picos now);
  FrameQueue& queue_of(size_t source);
  // QCN (cna_qcn.cpp)
  void on_cnm(const ControlMessage& cnm, Picos now);
  void apply_due_cnms(Picos now);
  void advance_limiter_timers(Picos now);
  void after_send(int source, uint32_t bytes, Picos now);
  void report_rate(size_t source, Limiter& l, Picos now);
  Picos next_qcn_wake() const;
  Payload& build_frame(const QueuedFrame& q, int priority);
  // End-to-end transport (cna_e2e.cpp)
  void advance_transport(Picos now);
  bool transport_ready(int priority) const;
  Payload* next_transport_frame(int priority, Picos now);  // an ACK, NAK or resent frame
  void number_frame(EthernetFrame& f, const QueuedFrame& q, Picos now);
  // Whether a received frame goes on to be delivered (else it was the
  // transport's: an ACK or NAK, a duplicate, or out of order).
  bool accept_transport(const EthernetFrame& f, Picos now);

  PortId port_;
  CnaParams params_;
  PayloadPool& pool_;
  CnaObserver* observer_ = nullptr;
  std::vector<std::unique_ptr<FrameSource>> sources_;
  std::vector<bool> source_blocked_;
  std::array<FrameQueue, kPriorities> queues_;
  std::array<FlowRoundRobin, kPriorities> admission_;  // whose frame takes a free place in queues_
  std::vector<int> used_priorities_;                   // those with flows, ascending
  std::array<bool, kPriorities> paused_{};
  mutable int round_robin_next_ = kPriorities - 1;
  uint64_t next_frame_seq_ = 0;
  uint64_t frames_sent_ = 0;
  std::array<uint32_t, kPriorities> sent_seq_{};    // frames sent per priority (FrameHeader::sent_seq)
  DeliveryOrder order_;                             // this CNA is the destination
  std::vector<std::unique_ptr<Limiter>> limiters_;  // by source; null: not limited
  size_t limited_ = 0;                              // sources with a limiter
  std::deque<PendingCnm> pending_cnms_;             // in arrival order
  std::array<size_t, kPriorities> turn_{};          // round robin: 0 the priority queue, 1 + source
  std::unique_ptr<E2eTransport> transport_;         // null: cna.e2e.retransmit off
  uint32_t next_reply_seq_ = 0;                     // ACK and NAK frames' ids
  ReceivedTotals received_;                         // this CNA is the destination
  const DeliveryBound* bound_ = nullptr;
  uint64_t invariants_checked_ = 0;
  MessageListener* listener_ = nullptr;
};

}  // namespace fabric
