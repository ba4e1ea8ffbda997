#include "platforms/fabric/fabric_top.h"

#include <algorithm>

#include "model/core/random.h"
#include "model/link/link_receiver.h"
#include "platforms/common/ledger_flows.h"
#include "platforms/fabric/link_names.h"
#include "platforms/fabric/multicast_groups.h"
#include "platforms/fabric/traffic_frame_source.h"

namespace fabric {

namespace {
// A partition's queue: 4 ns buckets, 256 of them (1 us ahead), 16 entries
// in a bucket before it spills. A leaf partition serves about 2000 entries
// per microsecond at full load; its wheel stays small enough for the cache.
constexpr EventQueueShape kPartitionQueue{12, 8, 16};
// How the ledger counts a flow's copies: one per frame, or per member of
// its group through its replication tree.
LedgerFlow fabric_ledger_flow(const traffic::FlowSpec& f, const MulticastGroups& groups,
                              const E2eTransportParams& e2e) {
  LedgerFlow l = ledger_flow(f);
  l.drops_recovered = !f.multicast && e2e.enabled && (e2e.priorities >> f.priority & 1);
  if (!f.multicast) return l;
  std::sort(l.members.begin(), l.members.end());
  std::unordered_map<uint32_t, std::vector<uint32_t>> fanout;
  for (const auto& [port, targets] : groups.trees.at(raw(f.id)).fanout)
    for (PortId t : targets) fanout[port].push_back(raw(t));
  l.deliveries_through = deliveries_through(raw(f.src), fanout, l.members);
  return l;
}
}  // namespace

FabricTop::FabricTop(sc_core::sc_module_name name, const FabricConfig& config,
                     const std::vector<traffic::FlowSpec>& flows, uint64_t seed, Recorder& recorder)
    : sc_module(name),
      config_(config),
      ledger_(recorder),
      recorder_(ledger_),
      scheduler_("scheduler", kPartitionQueue) {
  seed_ = seed;
  flows_ = flows;
  if (config_.topology.geometry.leaves == 1) config_.topology.geometry.spines = 0;  // nothing to reach
  const Geometry& g = config_.topology.geometry;
  // Partitions: each leaf with its CNAs, and each spine. They meet only on
  // leaf-spine links, whose cable delay is the scheduler's lookahead.
  std::vector<EventQueue*> leaf_events{&scheduler_.queue()};
  for (int l = 1; l < g.leaves; ++l) leaf_events.push_back(&scheduler_.add_queue(kPartitionQueue));
  scheduler_.set_lookahead(to_ps(config_.topology.fabric_link.propagation));
  // At the end of each window: link retry's buffers let go of what link
  // ACKs covered, and what partitions served in parallel recorded is handed on.
  pool_.defer_releases(true);
  scheduler_.add_window_end_hook([this] {
    pool_.release_deferred();
    recorder_.flush();
  });
  for (int p = 0; p < g.user_ports(); ++p) fdb_.learn(mac_of(PortId(p)), PortId(p));
  const MulticastGroups groups = install_multicast_groups(flows, g, config_.trees, fdb_, mcbc_);
  const auto& group_macs = groups.macs;
  for (const traffic::FlowSpec& f : flows) ledger_.ledger().add_flow(fabric_ledger_flow(f, groups, config_.cna.e2e));

  delivery_bound_ = std::make_unique<DeliveryBound>(
      DeliveryBoundParams{config_.topology.cna_link.rate_gbps, config_.topology.cna_link.overhead_bytes,
                          to_ps(config_.topology.cna_link.propagation), to_ps(config_.topology.fabric_link.propagation),
                          g, config_.leaf.dropped_credit == LeafParams::DroppedCredit::per_copy});
  for (int p = 0; p < g.user_ports(); ++p) {
    cnas_.push_back(std::make_unique<Cna>(("cna" + std::to_string(p)).c_str(), PortId(p), config_.cna_of(p), pool_,
                                          *leaf_events[raw(g.leaf_of(PortId(p)))]));
    cnas_.back()->set_observer(&cna_probes_.emplace_back(*cnas_.back(), recorder_));  // declares cna<N> (e2e)
    cnas_.back()->check_deliveries(delivery_bound_.get());
  }
  for (const traffic::FlowSpec& f : flows) {
    if (f.job) continue;  // made by its job's ranks (jobs_)
    const auto group = group_macs.find(raw(f.id));
    cnas_[raw(f.src)]->attach(std::make_unique<TrafficFrameSource>(
        f, traffic::flow_seed(seed, f.id),
        group == group_macs.end() ? std::nullopt : std::optional<uint64_t>(group->second)));
  }
  jobs_ = std::make_unique<FabricJobs>(config_.jobs, cnas_, group_macs);

  // Each leaf holds credits for spine s's input buffer (spine[s].buffer_packets).
  std::vector<int> spine_windows;
  for (int s = 0; s < g.spines; ++s) spine_windows.push_back(config_.spine_of(s).buffer_packets);
  for (int l = 0; l < g.leaves; ++l) {
    const LeafContext ctx{config_.leaf_of(l), g,   fdb_, mcbc_, pool_, spine_windows, config_.credit_return,
                          *leaf_events[l],    seed};
    leaves_.push_back(std::make_unique<Leaf>(("leaf" + std::to_string(l)).c_str(), LeafId(l), ctx));
    // The probe declares the leaf's entities (leaf<L>, its congestion points) and records what it reports.
    leaves_.back()->set_observer(&leaf_probes_.emplace_back(*leaves_.back(), recorder_));
  }

  const TxPortParams spine_tx =
      fabric_link_tx(config_.leaf, config_.credit_return, config_.leaf.downlink_buffer_packets);
  {
    for (int s = 0; s < g.spines; ++s)
      spines_.push_back(std::make_unique<Spine>(("spine" + std::to_string(s)).c_str(), g.leaves, config_.spine_of(s),
                                                pool_, spine_tx, scheduler_.add_queue(kPartitionQueue)));
  }

  LinkParams cna_uplink = config_.topology.cna_link;  // CNA to leaf: the frame's header beside its first bytes
  cna_uplink.concurrent_header = config_.leaf.concurrent_header;
  for (int l = 0; l < g.leaves; ++l) {
    Leaf& leaf = *leaves_[l];
    for (int k = 0; k < g.user_ports_per_leaf; ++k) {
      Cna& cna = *cnas_[raw(g.user_port(LeafId(l), k))];
      const PortId port = cna.port();
      const EntityPlace to_leaf = cna_link_place(l, port, true), to_cna = cna_link_place(l, port, false);
      Link& up = make_link(cna_link_name(l, k, true), to_leaf, cna_uplink);
      cna.tx.out.bind(up.in);
      up.out.bind(leaf.user_rx(k).in);
      add_link_layer(up, to_leaf, LinkClass::cna_leaf, cna.tx, leaf.user_rx(k), port, false);
      Link& down = make_link(cna_link_name(l, k, false), to_cna, config_.topology.cna_link);
      leaf.user_tx(k).out.bind(down.in);
      down.out.bind(cna.rx.in);
      add_link_layer(down, to_cna, LinkClass::cna_leaf, leaf.user_tx(k), cna.rx, port, false);
    }
    const bool retry = config_.retry.enabled;
    for (int s = 0; s < static_cast<int>(spines_.size()); ++s) {
      const EntityPlace to_spine = fabric_link_place(l, s, true), to_leaf = fabric_link_place(l, s, false);
      Link& up =
          make_link(fabric_link_name(l, s, true), to_spine, config_.fabric_link_of(fabric_link_name(l, s, true)));
      leaf.uplink_tx(s).out.bind(up.in);
      up.out.bind(spines_[s]->rx(l).in);
      add_link_layer(up, to_spine, LinkClass::leaf_spine, leaf.uplink_tx(s), spines_[s]->rx(l), PortId(0), retry);
      Link& down =
          make_link(fabric_link_name(l, s, false), to_leaf, config_.fabric_link_of(fabric_link_name(l, s, false)));
      spines_[s]->tx(l).out.bind(down.in);
      down.out.bind(leaf.downlink_rx(s).in);
      add_link_layer(down, to_leaf, LinkClass::spine_leaf, spines_[s]->tx(l), leaf.downlink_rx(s), PortId(0), retry);
    }
  }
}

FabricTop::~FabricTop() = default;

void FabricTop::set_threads(int threads) {
  scheduler_.set_threads(std::min(threads, static_cast<int>(scheduler_.queues())));  // a thread per partition at most
  if (scheduler_.threads() > 1) recorder_.activate(static_cast<int>(scheduler_.queues()));
}

Link& FabricTop::make_link(const std::string& name, const EntityPlace& ends, const LinkParams& params) {
  links_.push_back(std::make_unique<Link>(name.c_str(), params));
  link_places_.push_back(ends);
  return *links_.back();
}

void FabricTop::add_link_layer(const Link& made, const EntityPlace& place, LinkClass cls, TxPort& tx, RxPort& rx,
                               PortId port, bool retry) {
  const std::string link = made.basename();
  const std::optional<ErrorInjector::Params> errors = config_.errors.for_link(cls, link);
  if (!errors && !retry) return;  // a perfect link without retry: nothing between the ports
  std::unique_ptr<ErrorInjector> injector;
  if (errors) {
    uint64_t salt = 0x6c696e6b00000000ULL;
    for (char c : link) salt = salt * 131 + static_cast<unsigned char>(c);
    injector = std::make_unique<ErrorInjector>(*errors, mix_seed(seed_, salt));
  }
  LinkProbe& probe = link_probes_.emplace_back(recorder_, link, place, retry);  // declares a retry link's entity
  if (retry) {
    const uint32_t largest = std::max(config_.leaf.packet_bytes, config_.leaf.control_frame_bytes);
    auto sender = std::make_unique<RetrySender>(config_.retry, pool_, link);
    sender->set_observer(&probe);
    tx.enable_retry(std::move(sender), largest);
  }
  rx.set_link_receiver(LinkReceiver(std::move(injector), retry, config_.retry.ack_every, &probe, link, port));
  link_ends_.push_back({link, place, &tx, &rx, cls});
}

FabricTop::RecoveryTotals FabricTop::recovery_totals() const {
  RecoveryTotals t;
  for (const LinkEnds& e : link_ends_) {
    const uint64_t corrupted = e.rx->link_receiver()->corrupted();
    t.corrupted += corrupted;
    t.links_with_errors += corrupted > 0;
    if (e.cls == LinkClass::cna_leaf) t.cna_link_drops += e.rx->link_receiver()->dropped();
    if (const RetrySender* retry = e.tx->retry()) {
      t.replays += retry->replays();
      t.replay_episodes += retry->replay_episodes();
      t.retry_timeouts += retry->timeouts();
      t.link_acks_carried += retry->link_acks_carried();
      t.link_acks_alone += retry->link_acks_sent();
    }
  }
  for (const auto& l : leaves_)
    for (int k = 0; k <= config_.topology.geometry.user_ports_per_leaf; ++k) t.retransmissions += l->retransmissions(k);
  t.cna_transport = config_.cna.e2e.enabled;
  for (const auto& c : cnas_) {
    if (const E2eTransport* e2e = c->transport()) {
      t.cna_retransmissions += e2e->retransmitted();
      t.cna_timeouts += e2e->timeouts();
      t.cna_duplicates += e2e->duplicates();
    }
  }
  return t;
}

bool FabricTop::awaiting_acks() const {
  for (const auto& l : leaves_)
    if (l->awaiting_acks()) return true;
  for (const auto& c : cnas_)
    if (c->transport() && c->transport()->unacknowledged() > 0) return true;
  return false;
}

uint64_t FabricTop::messages_moved() const {
  uint64_t n = 0;
  for (const auto& l : links_) n += l->messages();
  return n;
}

void FabricTop::sample_occupancy(Picos t) {
  for (LeafProbe& p : leaf_probes_) p.sample(t);
}

uint64_t FabricTop::backlog() const {
  uint64_t n = 0;
  // Frames a QCN rate limiter holds back are waiting for their time, not stuck.
  for (const auto& c : cnas_) n += c->queued() - c->held_by_rate_limiters();
  for (const auto& l : leaves_) n += l->backlog();
  for (const auto& s : spines_) n += s->backlog();
  return n;
}

void FabricTop::describe_backlog(std::ostream& out, int max_lines) const {
  for (const auto& c : cnas_) {
    if (c->queued() == 0 || max_lines <= 0) continue;
    out << "  " << c->name() << ": " << c->queued() << " frames queued";
    for (int p = 0; p < kPriorities; ++p)
      if (c->paused(p)) out << " (priority " << p << " paused)";
    out << "\n";
    --max_lines;
  }
  for (const auto& l : leaves_) l->describe_backlog(out, max_lines / 2);
  for (const auto& s : spines_) s->describe_backlog(out, 4);
}

uint64_t FabricTop::frames_sent() const {
  uint64_t n = 0;
  for (const auto& c : cnas_) n += c->frames_sent();
  return n;
}

FabricTop::RtlTotals FabricTop::rtl_totals() const {
  RtlTotals t;
  for (const auto& l : leaves_) {
    t.sync += l->multicast().sync_rtl_activity();
    t.cache += l->multicast().cache_rtl_activity();
  }
  return t;
}

uint64_t FabricTop::frames_delivered() const {
  uint64_t n = 0;
  for (const auto& c : cnas_) n += c->frames_received();
  return n;
}

uint64_t FabricTop::invariants_checked() const {
  uint64_t n = fabric::invariants_checked(links_);
  for (const auto& c : cnas_) n += c->invariants_checked();
  for (const auto& l : leaves_) n += l->invariants_checked();
  return n + ledger_.ledger().checks();
}

uint64_t FabricTop::drops() const {
  uint64_t n = 0;
  for (const auto& l : leaves_) n += l->drops();
  for (const LinkEnds& e : link_ends_) n += e.rx->link_receiver()->dropped();
  return n;
}

bool FabricTop::jobs_stuck() const { return jobs_->nothing_to_send() && drained(now_ps()); }

bool FabricTop::drained(Picos t) const {
  if (backlog() > 0 || awaiting_acks()) return false;
  for (const auto& c : cnas_)
    if (c->queued() > 0) return false;
  for (const auto& l : links_)
    if (l->quiet_from() > t) return false;
  return true;
}

void FabricTop::finish(Picos end) {
  recorder_.flush();
  drained_at_end_ = drained(end);
  ledger_.ledger().finish(end, drained_at_end_);
  for (size_t c = 0; c < cnas_.size(); ++c) {
    cnas_[c]->finish();       // frames never sent
    cna_probes_[c].finish();  // per-subflow and transport totals
  }
  uint64_t on_surplus_credit = 0;
  for (size_t l = 0; l < leaves_.size(); ++l) {
    leaf_probes_[l].sample_cache(end);  // the final cache counters, before the cache finishes
    leaves_[l]->finish();
    on_surplus_credit += leaves_[l]->copies_on_surplus_credit();
  }
  const EntityId system = recorder_.declare(EntityKind::system, "fabric");
  recorder_.total(system, metric::copies_on_surplus_credit, static_cast<double>(on_surplus_credit));
  ledger_.record_totals(system, true);
  jobs_->record(recorder_, end);
  for (size_t i = 0; i < links_.size(); ++i) record_link_totals(recorder_, *links_[i], link_places_[i], end);
  for (const LinkEnds& e : link_ends_) {
    const LinkReceiver& rx = *e.rx->link_receiver();
    // Per link end, and only where something happened: 8,192 rows of zeros
    // at every run would say nothing (a missing row is 0, docs/database.md).
    const auto nonzero = [&](TotalMetric metric, uint64_t count) {
      if (count > 0)
        recorder_.total(recorder_.declare(EntityKind::link, e.link, -1, e.place), metric, static_cast<double>(count));
    };
    nonzero(metric::corrupted, rx.corrupted());
    if (const RetrySender* retry = e.tx->retry()) {
      nonzero(metric::replays, retry->replays());
      nonzero(metric::replay_episodes, retry->replay_episodes());
      nonzero(metric::retry_timeouts, retry->timeouts());
      nonzero(metric::link_acks_carried, retry->link_acks_carried());
    }
  }
}

}  // namespace fabric
