#include "platforms/fabric/fabric_platform.h"
#include "model/leaf/pause_headroom.h"

#include <cmath>

#include <algorithm>
#include <iterator>

#include "model/cna/cna_params.h"
#include "model/leaf/leaf_params.h"
#include "model/leaf/lossless_limits.h"
#include "model/link/link_params.h"
#include "model/spine/spine_params.h"
#include "platforms/common/sampling_guard.h"
#include "platforms/fabric/fabric_instances.h"
#include "platforms/fabric/fabric_keys.h"
#include "platforms/fabric/fabric_sizing.h"
#include "platforms/fabric/fabric_top.h"
#include "platforms/fabric/link_names.h"
#include "platforms/fabric/multicast_groups.h"
#include "platforms/fabric/topology_params.h"
#include "platforms/fabric/traffic_bounds.h"
#include "traffic/frame_size.h"
#include "traffic/jobs/job_params.h"
#include "traffic/traffic_params.h"

namespace fabric {

namespace {

// Occupancy samples one sampling instant writes: ingress and egress bytes
// of every port of every leaf, surrogate ports included.
int64_t occupancy_samples_per_instant(const Geometry& g) { return int64_t{2} * g.leaves * (g.user_ports_per_leaf + 1); }

class FabricRun final : public PlatformRun {
 public:
  explicit FabricRun(FabricConfig config) : config_(std::move(config)) {}

  void describe_ports(PortCatalog& rec) const override {
    const Geometry& g = config_.topology.geometry;
    for (int p = 0; p < g.user_ports(); ++p) {
      const LeafId leaf = g.leaf_of(PortId(p));
      rec.add_port(p, raw(leaf), "user", g.rack_of(leaf), g.chassis_of(leaf), g.cie_of(leaf));
    }
    for (int l = 0; l < g.leaves; ++l) {
      const LeafId leaf = LeafId(l);
      rec.add_port(raw(g.surrogate_port(leaf)), l, "surrogate", g.rack_of(leaf), g.chassis_of(leaf), g.cie_of(leaf));
    }
  }

  std::unique_ptr<PlatformTop> build(const std::vector<traffic::FlowSpec>& flows, uint64_t seed,
                                     Recorder& recorder) const override {
    return std::make_unique<FabricTop>("fabric", config_, flows, seed, recorder);
  }

 private:
  FabricConfig config_;
};

// Message traffic and closed-loop sources belong to the end stations of
// other platforms; a CNA's flows are open loop, frame by frame.
void refuse_end_station_traffic(const config::Config& config, const std::vector<traffic::FlowSpec>& flows) {
  for (const traffic::FlowSpec& f : flows) {
    if (f.closed_loop)
      config.fail("flow." + f.name + ".closed_loop",
                  "false on platform fabric: a CNA's flows are open loop, at their rate");
    if (f.message)
      config.fail("flow." + f.name + ".message",
                  "unset on platform fabric: a CNA's flows send frames (flow.*.frame_size)");
  }
}

}  // namespace

void FabricPlatform::declare_params(config::ParamRegistry& r) const {
  config::ParamScope declaring(r);
  FabricKeys keys;
  traffic::MulticastTreeKeys trees;
  traffic::JobKeys jobs;
  declare_fabric_instance_groups(r);
}

PlatformResolution FabricPlatform::resolve(const config::Config& config, const SharedRunKeys& keys) const {
  config::ParamScope reading(config);
  FabricKeys k;
  FabricConfig f;
  f.topology = read_topology_params(k.topology, static_cast<int>(k.spine.ports.value()));
  derive_fabric_keys(k, f.topology);
  check_fabric_keys(k, f.topology, keys.sim_time, config);
  f.spine = read_spine_params(k.spine);
  f.leaf = read_leaf_params(k.leaf, keys.stall_timeout);
  check_rtl_trace_leaf(k.leaf.rtl, f.leaf, f.topology.geometry.leaves);
  f.cna = read_cna_params(k.cna);
  f.cna.scale_to_line(f.topology.cna_link.rate_gbps);
  f.credit_return = read_credit_return_params(k.link.credit);
  f.retry = read_link_retry_params(k.link.retry, std::max(f.leaf.packet_bytes, f.leaf.control_frame_bytes),
                                   f.leaf.control_bytes);
  f.errors = read_link_error_params(k.link.errors,
                                    [&](const std::string& link) { return names_link(f.topology.geometry, link); });
  PlatformResolution r;
  r.occupancy_samples = check_sampling(config, keys.sim_time, keys.sample_interval, keys.max_samples,
                                       occupancy_samples_per_instant(f.topology.geometry));
  if (f.leaf.retransmit) r.recovery_wait = f.leaf.retransmit_timeout;
  if (f.cna.e2e.enabled) r.recovery_wait = std::max(r.recovery_wait, f.cna.e2e.timeout);
  r.flows = traffic::read_flows(config, f.topology.geometry.user_ports(), f.topology.cna_link.rate_gbps, keys.seed,
                                f.topology.geometry.user_ports_per_leaf);
  refuse_end_station_traffic(config, r.flows);
  traffic::Jobs jobs = traffic::read_jobs(config, f.topology.geometry.user_ports(), f.topology.cna_link.rate_gbps,
                                          FlowId(static_cast<uint32_t>(r.flows.size())));
  r.flows.insert(r.flows.end(), std::make_move_iterator(jobs.flows.begin()), std::make_move_iterator(jobs.flows.end()));
  f.jobs = std::move(jobs.plans);
  f.leaf = finish_leaf_params(k.leaf, f.leaf, f.topology, r.flows);
  const traffic::MulticastTreeKeys trees;
  f.trees.max_levels = static_cast<int>(trees.max_levels.value());
  f.trees.max_source_fanout = static_cast<size_t>(trees.source_fanout.value());
  f.trees.leaf_order = trees.leaf_order.value() == "spread" ? LeafOrder::spread : LeafOrder::leaf_id;
  {  // every multicast group has a legal tree, or the run stops here
    Fdb fdb;
    McbcTable mcbc;
    const MulticastGroups groups = install_multicast_groups(r.flows, f.topology.geometry, f.trees, fdb, mcbc);
    // A job's flows are closed loop: their frames wait for the fabric, so
    // they offer no sustained load for these bounds (docs/jobs.md).
    std::vector<traffic::FlowSpec> open_loop;
    std::copy_if(r.flows.begin(), r.flows.end(), std::back_inserter(open_loop),
                 [](const traffic::FlowSpec& flow) { return !flow.job; });
    const TrafficDemand demand = traffic_demand(open_loop, f.topology.geometry, groups, f.topology.cna_link.rate_gbps,
                                                static_cast<uint8_t>(f.leaf.lossless.to_ulong()));
    check_traffic_bounds(k, f.topology, f.leaf, demand, config);
    // The instances given keys of their own, read and checked as the class-wide keys were.
    resolve_fabric_instances(config, f, {keys.stall_timeout, keys.sim_time, &r.flows, &demand});
  }
  r.run = std::make_unique<FabricRun>(std::move(f));
  return r;
}

}  // namespace fabric
