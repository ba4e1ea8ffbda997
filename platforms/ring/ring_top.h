#pragma once
// The ring platform's top (platforms.md, E14): the stations of QuickRing
// rings and the bridges joining them, a 1.6 Gb/s segment from each position
// of a ring to the next, the headers of the frames on them, and each
// sender's host load. It holds no behaviour of its own.
#include <deque>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "model/core/event_scheduler.h"
#include "model/invariants/ledger_recorder.h"
#include "model/link/link.h"
#include "model/protocol/payload_pool.h"
#include "model/ring/ring_bridge.h"
#include "model/ring/ring_frame_store.h"
#include "model/ring/ring_network.h"
#include "model/ring/ring_station.h"
#include "model/ring/ring_station_probe.h"
#include "platforms/common/platform.h"
#include "platforms/ring/ring_params.h"
#include "traffic/packet_arrivals.h"

namespace fabric {

// What one station offers over time: its share of the aggregate load while
// the pattern in force has it send.
class RingSenderLoad final : public traffic::SenderLoad {
 public:
  RingSenderLoad(const RingConfig& config, bool first_of_group) : config_(config), first_(first_of_group) {}
  double gbps_at(Picos t) const override;
  Picos next_change(Picos t) const override;

 private:
  const RingConfig& config_;
  bool first_;
};

class RingTop final : public sc_core::sc_module, public PlatformTop {
 public:
  RingTop(sc_core::sc_module_name name, const RingConfig& config, uint64_t seed, Recorder& recorder);

  EventScheduler& scheduler() override { return scheduler_; }
  const EventScheduler& scheduler() const override { return scheduler_; }
  void set_threads(int) override {}  // one partition
  uint64_t messages_moved() const override;
  uint64_t backlog() const override;
  bool awaiting_acks() const override { return false; }
  void describe_backlog(std::ostream& out, int max_lines) const override;
  void sample_occupancy(Picos t) override;
  uint64_t frames_sent() const override;
  uint64_t frames_delivered() const override;
  uint64_t drops() const override { return 0; }  // reservations: no receiver overflows
  uint64_t invariants_checked() const override {
    uint64_t n = fabric::invariants_checked(segments_) + ledger_.ledger().checks();
    for (const auto& s : stations_) n += s->invariants_checked();
    return n;
  }
  std::optional<CopyAccount> copy_account() const override {
    return CopyAccount{ledger_.ledger().total(), drained_at_end_};
  }
  void finish(Picos end) override;
  void summarize(std::ostream& out, Picos simulated) const override;  // ring_summary.cpp

  const RingStation& station(int s) const { return *stations_[static_cast<size_t>(s)]; }
  int stations() const { return static_cast<int>(stations_.size()); }
  uint64_t packets_offered() const;
  uint64_t attempts() const;
  uint64_t retracts() const;
  // Payload delivered per second, counting each packet once (its deliveries
  // over its group's members).
  double throughput_gbps(Picos simulated) const;

 private:
  template <class Count>
  uint64_t sum_over_stations(Count count) const {
    uint64_t n = 0;
    for (const auto& s : stations_) n += count(*s);
    return n;
  }

  RingConfig config_;
  LedgerRecorder ledger_;  // every packet accounted for (model/invariants/)
  Recorder& recorder_;     // ledger_, in front of the run's recorder
  bool drained_at_end_ = false;
  EntityId entity_;           // the platform's
  EventScheduler scheduler_;  // before the modules, which keep a reference
  PayloadPool pool_;
  ring::RingFrameStore frames_;
  std::vector<std::unique_ptr<RingSenderLoad>> loads_;
  ring::RingNetwork network_;
  std::vector<std::unique_ptr<RingStation>> stations_;
  std::deque<RingStationProbe> station_probes_;  // by station (deque: the station points at its probe)
  std::vector<std::unique_ptr<RingBridge>> bridges_;
  std::vector<std::unique_ptr<Link>> segments_;
  std::vector<EntityId> segment_entities_;  // ring<R>.segment<P>, by segment
  std::vector<Picos> busy_at_last_sample_;
  Picos last_sample_ = 0;
};

}  // namespace fabric
