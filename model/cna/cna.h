#pragma once
// A converged network adapter: sends the frames of its server's flows from
// 8 priority queues (strict priority or round robin) at the link rate, obeys
// per-priority PAUSE, and records every frame it receives.
#include <array>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "model/cna/cna_params.h"
#include "model/cna/frame_source.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"
#include "model/recording/recorder.h"

namespace fabric {

class Cna : public sc_core::sc_module, public RxSink, public TxSource {
 private:
  EventQueue& events_;  // declared first: the ports use it

 public:
  RxPort rx;
  TxPort tx;

  Cna(sc_core::sc_module_name name, PortId port, const CnaParams& params, PayloadPool& pool,
      Recorder& recorder, EventQueue& events);

  void attach(std::unique_ptr<FrameSource> source);

  void receive(int rx_index, Payload& payload) override;
  void prefetch_receive(int, const Payload& payload) const override { prefetch_frame_extension(payload); }
  TxSource::Pull next_data(int tx_index, Picos not_after) override;

  // End of run: frames still queued are recorded as never sent; per-subflow
  // totals are written.
  void finish();

  PortId port() const { return port_; }
  uint64_t frames_sent() const { return frames_sent_; }
  uint64_t frames_received() const { return frames_received_; }
  uint64_t bytes_received() const { return bytes_received_; }
  size_t queued() const;
  bool paused(int priority) const { return paused_[priority]; }
  // Per flow received here, in flow id order.
  std::vector<SubflowSummary> received_summaries() const;

 private:
  SC_HAS_PROCESS(Cna);
  struct QueuedFrame {
    FrameId id;
    FlowId flow;
    uint64_t dst_mac;
    uint32_t bytes;
    Picos created;
  };
  void start();
  void generate(Picos now);
  int pick_priority() const;

  PortId port_;
  CnaParams params_;
  PayloadPool& pool_;
  Recorder& recorder_;
  std::vector<std::unique_ptr<FrameSource>> sources_;
  std::vector<bool> source_blocked_;
  std::array<std::deque<QueuedFrame>, kPriorities> queues_;
  std::array<bool, kPriorities> paused_{};
  mutable int round_robin_next_ = kPriorities - 1;
  uint64_t next_frame_seq_ = 0;
  uint64_t frames_sent_ = 0;
  uint64_t frames_received_ = 0;
  uint64_t bytes_received_ = 0;
  std::unordered_map<uint32_t, SubflowSummary> received_;  // by flow: this CNA is the destination
};

}  // namespace fabric
