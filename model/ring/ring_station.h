#pragma once
// A QuickRing station (platforms.md, E14): a thin SystemC shell around the
// station's protocol (StationProtocol), its ticket pacing (TicketPacer) and
// its SPQ limit (fixed, or AdaptiveLimit). A frame arrives at its first byte
// (cut through) and is taken after the station's latency; it then goes on
// downstream or stops here. Register insertion: the output sends a transit
// frame first, then the station's own control frames, then its own data,
// and its own frames only while no transit frame waits. The host's packets
// come from a ring::PacketSource (the platform adapts the traffic to it).
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
#include "model/recording/received_totals.h"
#include "model/ring/flow_control.h"
#include "model/ring/packet_source.h"
#include "model/ring/ring_frame_store.h"
#include "model/ring/ring_station_observer.h"
#include "model/ring/station_protocol.h"
#include "model/ring/ticket_pacer.h"

namespace fabric {

// From the ring.* keys, which hold the defaults (the permit interval and
// the observation window set per run by the ring's top).
struct RingStationParams {
  Picos latency = 0;  // cut through: from a frame's first byte to its forwarding
  int buffers = 0;
  bool free_on_receipt = false;
  ring::OwnFrames own_frames = ring::OwnFrames::control_first;
  int q = 0;                // fixed SPQ limit; 0: none
  bool q_adaptive = false;  // the adaptive limit instead
  int members = 0;          // of the station's group (the adaptive limit's B / (m - 1))
  ring::PacerParams pacer;
  Picos permit_interval = 0;  // the expected packet inter-arrival time at the start
  Picos observe_every = 0;    // the adaptive limit's observations: one ticket round trip
  size_t host_queue = 4096;   // packets waiting at the host before arrivals are dropped
};

class RingStation final : public sc_core::sc_module, public TxSource, public RxSink, public EventQueue::Client {
 public:
  // The station `station` (global id) at `position` of a ring laid out as `layout`.
  RingStation(sc_core::sc_module_name name, int position, int station, const ring::RingLayout& layout,
              const std::vector<ring::RingGroup>& groups, const RingStationParams& params, ring::RingFrameStore& frames,
              PayloadPool& pool, EventQueue& events);
  // Who hears of each host drop, packet sent, retract and delivery (a
  // RingStationProbe), or null.
  void set_observer(RingStationObserver* observer) { observer_ = observer; }
  int station() const { return station_; }
  // The host's packets (a sender only), from the start of the run.
  void attach_host(std::unique_ptr<ring::PacketSource> arrivals);

  const ring::StationProtocol& protocol() const { return protocol_; }
  int limit() const { return protocol_.limit(); }
  size_t transit_waiting() const { return transit_.size(); }
  uint64_t packets_offered() const { return offered_; }
  uint64_t deliveries() const { return deliveries_; }
  uint64_t attempts() const { return attempts_; }
  bool sends() const { return protocol_.sends(); }
  int max_buffers_used() const { return max_used_; }
  uint64_t host_drops() const { return host_drops_; }
  // Packets checked against their reservation here (invariant kReserved).
  uint64_t invariants_checked() const { return invariants_checked_; }
  // What the station received, per source (a probe records it at the end).
  std::vector<SubflowSummary> received_summaries() const { return received_.summaries(); }

  TxPort tx;
  RxPort rx;

 private:
  Pull next_data(int tx_index, Picos not_after) override;
  void receive(int rx_index, Payload& payload) override;
  void on_wake(void* item) override;
  void take(Payload& payload, Picos now);                    // a frame, its header through the station
  void check_reserved(const ring::RingFrame& f, Picos now);  // invariant kReserved
  void host_arrival(Picos now);
  // Hands the protocol's output on: tickets to the pacer and out, packets
  // sent and delivered to the observer, the limit's observations.
  void serve(Picos now, Picos deliveries_at);
  void wake_pacer(Picos at);
  void record_deliveries(Picos at);

  int station_;
  RingStationParams params_;
  ring::StationProtocol protocol_;
  ring::TicketPacer pacer_;
  std::optional<ring::AdaptiveLimit> adaptive_;
  ring::RingFrameStore& frames_;
  PayloadPool& pool_;
  RingStationObserver* observer_ = nullptr;
  EventQueue& events_;
  std::unique_ptr<ring::PacketSource> arrivals_;
  CircularQueue<Payload*, 8> transit_;
  char arrival_tag_ = 0, pacer_tag_ = 0;  // wake items
  Picos pacer_wake_at_ = kNever;
  Picos last_observed_ = 0;
  Picos last_delivery_ = 0;
  uint64_t next_packet_ = 0;
  uint64_t offered_ = 0, deliveries_ = 0, attempts_ = 0, host_drops_ = 0;
  uint64_t invariants_checked_ = 0;
  ReceivedTotals received_;
  int max_used_ = 0;
  // What the protocol and the pacer hand over, kept between calls.
  std::vector<ring::SenderNotice> notices_;
  std::vector<ring::StationProtocol::Ready> ready_;
  std::vector<ring::Priority> released_;
  std::vector<ring::Delivery> deliveries_out_;
};

}  // namespace fabric
