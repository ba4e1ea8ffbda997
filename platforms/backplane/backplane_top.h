#pragma once
// The backplane platform's top (platforms.md, E12): one shared-memory
// switch and its end stations, each joined to its switch port by a link
// each way. It holds no behaviour of its own.
#include <deque>
#include <memory>
#include <ostream>
#include <vector>

#include "model/backplane/backplane_switch.h"
#include "model/backplane/backplane_switch_probe.h"
#include "model/backplane/end_station.h"
#include "model/backplane/end_station_probe.h"
#include "model/core/event_scheduler.h"
#include "model/invariants/ledger_recorder.h"
#include "model/link/link.h"
#include "model/protocol/payload_pool.h"
#include "platforms/backplane/backplane_params.h"
#include "platforms/common/platform.h"

namespace fabric {

class BackplaneTop final : public sc_core::sc_module, public PlatformTop {
 public:
  BackplaneTop(sc_core::sc_module_name name, const BackplaneConfig& config, const std::vector<traffic::FlowSpec>& flows,
               uint64_t seed, Recorder& recorder);

  EventScheduler& scheduler() override { return scheduler_; }
  const EventScheduler& scheduler() const override { return scheduler_; }
  void set_threads(int) override {}  // one partition: the SystemC thread serves it
  uint64_t messages_moved() const override;
  uint64_t backlog() const override;
  bool awaiting_acks() const override { return false; }
  void describe_backlog(std::ostream& out, int max_lines) const override;
  void sample_occupancy(Picos t) override { switch_probe_->sample(t); }
  uint64_t frames_sent() const override;
  uint64_t frames_delivered() const override;
  uint64_t drops() const override { return switch_->memory().discards(); }
  uint64_t invariants_checked() const override {
    return fabric::invariants_checked(links_) + ledger_.ledger().checks() + switch_->invariants_checked();
  }
  void finish(Picos end) override;
  std::optional<CopyAccount> copy_account() const override {
    return CopyAccount{ledger_.ledger().total(), drained_at_end_};
  }
  // Throughput, latency, discards, PAUSE and memory (backplane_summary.cpp).
  void summarize(std::ostream& out, Picos simulated) const override;

  // The figures the summary prints, from the warm-up on.
  struct Figures {
    double throughput_gbps = 0;  // frame bytes received by all stations
    double latency_mean_ps = 0;
    Picos latency_p99_ps = 0;
    Picos latency_max_ps = 0;
    uint64_t frames_measured = 0;
    double pause_per_second = 0;  // PAUSE frames per second on the busiest station link
    double pause_share = 0;       // ... and their share of its time
  };
  Figures figures(Picos end) const;

 private:
  BackplaneConfig config_;
  LedgerRecorder ledger_;  // every copy accounted for (model/invariants/)
  Recorder& recorder_;     // ledger_, in front of the run's recorder
  bool drained_at_end_ = false;
  EntityId entity_;           // the platform's, in totals
  EventScheduler scheduler_;  // before the modules, which keep a reference
  PayloadPool pool_;
  std::vector<traffic::FlowSpec> flows_;  // the stations keep pointers into it
  std::unique_ptr<BackplaneSwitch> switch_;
  std::unique_ptr<BackplaneSwitchProbe> switch_probe_;  // what the switch reports and holds, recorded
  std::vector<std::unique_ptr<EndStation>> stations_;
  std::deque<EndStationProbe> station_probes_;  // by station (deque: the station points at its probe)
  std::vector<std::unique_ptr<Link>> links_;
  std::vector<EntityPlace> link_places_;  // links_'s ends, in its order
};

}  // namespace fabric
