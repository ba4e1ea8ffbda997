#pragma once
// The ibft platform's top (platforms.md, E13): the switches and host
// adapters of an IBFT(m, n), a link each way on every cable, the subnet
// manager's forwarding tables, and each source's one-shot message sent at
// the start. It holds no behaviour of its own.
#include <deque>
#include <memory>
#include <ostream>
#include <vector>

#include "model/core/event_scheduler.h"
#include "model/ibft/forwarding_tables.h"
#include "model/ibft/host_adapter.h"
#include "model/ibft/host_adapter_probe.h"
#include "model/ibft/ib_switch.h"
#include "model/ibft/ibft_topology.h"
#include "model/ibft/subnet_manager.h"
#include "model/invariants/ledger_recorder.h"
#include "model/link/link.h"
#include "model/protocol/payload_pool.h"
#include "platforms/common/platform.h"
#include "platforms/ibft/ibft_params.h"

namespace fabric {

class IbftTop final : public sc_core::sc_module, public PlatformTop {
 public:
  IbftTop(sc_core::sc_module_name name, const IbftConfig& config, const std::vector<traffic::FlowSpec>& flows,
          Recorder& recorder);

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
  uint64_t drops() const override { return 0; }  // credit flow control: nothing is dropped
  uint64_t invariants_checked() const override {
    return fabric::invariants_checked(links_) + ledger_.ledger().checks();
  }
  void finish(Picos end) override;
  std::optional<CopyAccount> copy_account() const override {
    return CopyAccount{ledger_.ledger().total(), drained_at_end_};
  }
  void summarize(std::ostream& out, Picos simulated) const override;  // ibft_summary.cpp
  bool done() const override { return frames_delivered() == expected_deliveries_; }

  // When the last packet's last byte reached its destination.
  Picos completion() const;
  uint64_t expected_deliveries() const { return expected_deliveries_; }
  uint64_t switch_copies() const;

 private:
  IbftConfig config_;
  LedgerRecorder ledger_;  // every packet accounted for (model/invariants/)
  Recorder& recorder_;     // ledger_, in front of the run's recorder
  bool drained_at_end_ = false;
  EntityId entity_;  // the platform's, in samples and totals
  IbftTopology topology_;
  SubnetManager subnet_;
  ForwardingTables tables_;
  EventScheduler scheduler_;  // before the modules, which keep a reference
  PayloadPool pool_;
  std::vector<std::unique_ptr<IbSwitch>> switches_;
  std::vector<std::unique_ptr<HostAdapter>> hosts_;
  std::deque<HostAdapterProbe> host_probes_;  // by host (deque: the adapter points at its probe)
  std::vector<std::unique_ptr<Link>> links_;
  uint64_t expected_deliveries_ = 0;
};

}  // namespace fabric
