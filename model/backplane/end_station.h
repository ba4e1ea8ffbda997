#pragma once
// A backplane end station (platforms.md, E12: the workload generator): a
// closed-loop application writing its flow's frames into a 2 KB NIC
// buffer, a 2 KB MAC transmit buffer (TransmitStages), a MAC that obeys
// 802.3x PAUSE (MacPause) after the frame on the wire, and a sink. The
// thin SystemC shell around those units: a TxPort and an RxPort on its
// links, and a wake at the flow's start.
//
// Latency is the document's: from the frame's first byte leaving the
// application (its write into the NIC buffer) to its last byte reaching the
// sink.
#include <memory>
#include <string>
#include <systemc>

#include "model/backplane/end_station_observer.h"
#include "model/backplane/transmit_stages.h"
#include "model/backplane/xoff_controller.h"
#include "model/core/event_queue.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"
#include "model/recording/latency_histogram.h"
#include "model/recording/received_totals.h"

namespace fabric {

// What a station's application writes, frame by frame: the platform
// supplies it from the traffic layer.
class ApplicationFrames {
 public:
  struct Frame {
    uint32_t bytes = 0;
    PortId dst{};  // the destination station's port
  };
  virtual ~ApplicationFrames() = default;
  virtual Frame next() const = 0;  // the frame it writes next
  virtual void take() = 0;         // that frame was written
};

// When the application writes: [start, stop), at most max_frames frames.
struct Application {
  FlowId flow{};
  Picos start = 0;
  Picos stop = -1;          // -1: never stops
  uint64_t max_frames = 0;  // 0: unlimited
  std::unique_ptr<ApplicationFrames> frames;
};

// From the backplane.* keys, which hold the defaults.
struct EndStationParams {
  uint32_t nic_buffer_bytes = 0;
  uint32_t mac_buffer_bytes = 0;
  double link_gbps = 0;
  Picos measure_from = 0;  // the summary's latency and throughput count deliveries from here
};

class EndStation final : public sc_core::sc_module, public TxSource, public RxSink, public EventQueue::Client {
 public:
  EndStation(sc_core::sc_module_name name, PortId port, const EndStationParams& params, PayloadPool& pool,
             EventQueue& events);
  // Who hears of each frame sent and delivered and each PAUSE (an
  // EndStationProbe), or null.
  void set_observer(EndStationObserver* observer) { observer_ = observer; }
  // Its closed-loop application (one per station).
  void attach(Application application);

  PortId port() const { return port_; }
  uint64_t frames_sent() const { return frames_sent_; }
  uint64_t frames_received() const { return received_.frames(); }
  std::vector<SubflowSummary> received_summaries() const { return received_.summaries(); }
  uint64_t pause_frames() const { return pause_frames_; }
  size_t held() const { return stages_.held(); }
  bool paused_now() const;
  // Deliveries from measure_from on.
  const LatencyHistogram& measured_latency() const { return measured_; }
  uint64_t measured_bytes() const { return measured_bytes_; }
  // End of run: frames still in its buffers are told to the observer as never sent.
  void finish();

  TxPort tx;
  RxPort rx;

 private:
  // TxSource: the MAC.
  Pull next_data(int tx_index, Picos not_after) override;
  void transmission_done(int tx_index) override;
  // RxSink: PAUSE frames for the MAC, data frames for the sink.
  void receive(int rx_index, Payload& payload) override;
  // EventQueue::Client: the flow's start.
  void on_wake(void* item) override;
  // The application writes while the NIC buffer has room.
  void write_frames(Picos now);

  EventQueue& events_;
  PortId port_;
  EndStationParams params_;
  PayloadPool& pool_;
  EndStationObserver* observer_ = nullptr;
  TransmitStages stages_;
  MacPause pause_;
  Application app_;
  bool on_wire_ = false;
  uint64_t next_seq_ = 0;
  uint64_t frames_sent_ = 0;
  uint64_t pause_frames_ = 0;
  ReceivedTotals received_;
  LatencyHistogram measured_;
  uint64_t measured_bytes_ = 0;
};

}  // namespace fabric
