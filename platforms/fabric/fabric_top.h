#pragma once
// The platform top: composes CNAs, leaves, spines and the links between them
// from the configuration. It holds no behaviour of its own.
#include <deque>
#include <map>
#include <memory>
#include <ostream>
#include <vector>

#include "model/cna/cna.h"
#include "model/cna/cna_probe.h"
#include "model/core/event_scheduler.h"
#include "model/invariants/ledger_recorder.h"
#include "model/leaf/fdb.h"
#include "model/leaf/leaf.h"
#include "model/leaf/leaf_probe.h"
#include "model/link/link.h"
#include "model/link/link_params.h"
#include "model/link/link_probe.h"
#include "model/multicast/replication_tree.h"
#include "model/recording/partitioned_recorder.h"
#include "model/spine/spine.h"
#include "platforms/common/platform.h"
#include "platforms/fabric/fabric_jobs.h"
#include "platforms/fabric/topology_params.h"
#include "traffic/flow_spec.h"
#include "traffic/jobs/job_params.h"

namespace fabric {

struct FabricConfig {
  TopologyParams topology;
  LeafParams leaf;
  SpineParams spine;
  CnaParams cna;
  CreditReturnParams credit_return;
  LinkRetryParams retry;
  LinkErrorParams errors;
  TreeLimits trees;
  std::vector<traffic::JobPlan> jobs;  // closed-loop jobs (their flows are among the run's flows)
  // The instances given keys of their own (leaf[3].cache.entries, ...):
  // their parameters in full; every other instance takes the class-wide ones.
  std::map<int, LeafParams> leaf_instances;
  std::map<int, SpineParams> spine_instances;
  std::map<int, CnaParams> cna_instances;   // by user port
  std::map<std::string, double> link_gbps;  // leaf-spine links given a rate of their own (link[..].gbps), by name
  const LeafParams& leaf_of(int l) const { return of(leaf_instances, l, leaf); }
  LinkParams fabric_link_of(const std::string& name) const {
    LinkParams link = topology.fabric_link;
    if (const auto it = link_gbps.find(name); it != link_gbps.end()) link.rate_gbps = it->second;
    return link;
  }
  const SpineParams& spine_of(int s) const { return of(spine_instances, s, spine); }
  const CnaParams& cna_of(int port) const { return of(cna_instances, port, cna); }

 private:
  template <class Params>
  static const Params& of(const std::map<int, Params>& instances, int i, const Params& class_wide) {
    const auto it = instances.find(i);
    return it == instances.end() ? class_wide : it->second;
  }
};

class FabricTop : public sc_core::sc_module, public PlatformTop {
 public:
  FabricTop(sc_core::sc_module_name name, const FabricConfig& config, const std::vector<traffic::FlowSpec>& flows,
            uint64_t seed, Recorder& recorder);
  ~FabricTop() override;

  // The fabric's event scheduler (a queue per leaf and per spine); drive the
  // simulation with its run_until().
  EventScheduler& scheduler() override { return scheduler_; }
  const EventScheduler& scheduler() const override { return scheduler_; }
  const Geometry& geometry() const { return config_.topology.geometry; }
  // Messages that have entered any link so far: progress, for stall detection.
  uint64_t messages_moved() const override;
  // Frames or copies held anywhere (CNA queues, leaves, spines), but for
  // those a QCN rate limiter holds back: what a stall leaves stuck.
  uint64_t backlog() const override;
  // Every leaf's port buffer occupancy now, into the recorder's samples.
  void sample_occupancy(Picos t) override;
  // Serve the partitions on this many threads (1: the SystemC thread).
  void set_threads(int threads) override;
  void describe_backlog(std::ostream& out, int max_lines) const override;
  uint64_t frames_sent() const override;
  uint64_t frames_delivered() const override;
  // The RTL blocks' work over the run (zero when every block is the C++ model).
  struct RtlTotals {
    RtlActivity sync;
    RtlActivity cache;
  };
  RtlTotals rtl_totals() const;
  uint64_t drops() const override;
  uint64_t invariants_checked() const override;
  const std::vector<std::unique_ptr<Cna>>& cnas() const { return cnas_; }
  // Soft errors and their recovery over the run, all links together (per
  // link: the samples finish() writes).
  struct RecoveryTotals {
    uint64_t corrupted = 0, replays = 0, replay_episodes = 0, retry_timeouts = 0, retransmissions = 0;
    uint64_t cna_retransmissions = 0, cna_timeouts = 0, cna_duplicates = 0;  // the CNAs' transport (cna.e2e.*)
    uint64_t cna_link_drops = 0;                          // frames dropped corrupted on CNA-leaf links
    uint64_t link_acks_carried = 0, link_acks_alone = 0;  // link retry's ACKs, riding or as messages
    bool cna_transport = false;                           // whether the CNAs' transport sends them again
    int links_with_errors = 0;                            // links whose receiver saw at least one corrupted message
  };
  RecoveryTotals recovery_totals() const;
  bool has_link_layers() const { return !link_ends_.empty(); }
  // Whether any source port holds a copy, or any CNA a frame, sent and not
  // yet acknowledged.
  bool awaiting_acks() const override;
  // End of run at `end`: every CNA records what it still holds and its
  // totals; every link its messages, wire bytes and utilization (samples,
  // entity = the link's name).
  void finish(Picos end) override;
  std::optional<CopyAccount> copy_account() const override {
    return CopyAccount{ledger_.ledger().total(), drained_at_end_};
  }
  // Nothing queued, on a wire or awaited anywhere at `t`.
  bool drained(Picos t) const;
  // A run with jobs ends when every job has completed, when the jobs left
  // can no longer go on (jobs_stuck), or at sim.time.
  bool done() const override { return jobs_->any() && (jobs_->done() || jobs_stuck()); }
  // No rank has a send posted or to come, and nothing is queued or on a
  // wire anywhere: the unfinished jobs wait for frames the fabric dropped.
  bool jobs_stuck() const;
  const FabricJobs& jobs() const { return *jobs_; }
  // RTL activity, soft errors and recovery, receive throughput, and a table
  // of the flows when there are few (fabric_summary.cpp).
  void summarize(std::ostream& out, Picos simulated) const override;

 private:
  // A link named `name`, from the unit of `ends.from` to that of `ends.to`.
  Link& make_link(const std::string& name, const EntityPlace& ends, const LinkParams& params);
  // Soft errors and link retry on `link` (made with `ends`), from `tx` to `rx` (see LinkReceiver).
  void add_link_layer(const Link& link, const EntityPlace& ends, LinkClass cls, TxPort& tx, RxPort& rx, PortId port,
                      bool retry);

  FabricConfig config_;
  // What the modules record goes through recorder_, which buffers it per
  // partition while partitions are served in parallel (set_threads), then
  // through ledger_, which accounts for every copy (model/invariants/).
  LedgerRecorder ledger_;
  PartitionedRecorder recorder_;
  EventScheduler scheduler_;  // before the modules, which keep a reference
  PayloadPool pool_;
  Fdb fdb_;
  McbcTable mcbc_;
  std::unique_ptr<DeliveryBound> delivery_bound_;  // every CNA checks its deliveries against it
  std::vector<std::unique_ptr<Cna>> cnas_;
  std::deque<CnaProbe> cna_probes_;   // by CNA: what it reports, recorded (deque: the CNA points at it)
  std::unique_ptr<FabricJobs> jobs_;  // after the CNAs, whose sources point into it
  std::vector<std::unique_ptr<Leaf>> leaves_;
  std::deque<LeafProbe> leaf_probes_;  // by leaf: what it counts and reports, recorded (deque: the leaf points at it)
  std::deque<LinkProbe> link_probes_;  // by link end with a link layer (deque: the units point at them)
  std::vector<std::unique_ptr<Spine>> spines_;
  std::vector<std::unique_ptr<Link>> links_;
  std::vector<EntityPlace> link_places_;  // links_'s ends, in its order
  struct LinkEnds {
    std::string link;
    EntityPlace place;
    TxPort* tx;
    RxPort* rx;
    LinkClass cls;
  };
  std::vector<LinkEnds> link_ends_;  // links with errors or retry
  uint64_t seed_;
  std::vector<traffic::FlowSpec> flows_;  // for the summary
  bool drained_at_end_ = false;           // set by finish()
};

}  // namespace fabric
