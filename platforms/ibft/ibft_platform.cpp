#include "platforms/ibft/ibft_platform.h"

#include "model/core/sim_time.h"
#include "model/ibft/ibft_topology.h"
#include "platforms/common/own_traffic.h"
#include "platforms/common/sampling_guard.h"
#include "platforms/ibft/ibft_params.h"
#include "platforms/ibft/ibft_top.h"
#include "traffic/message_size.h"
#include "traffic/one_shot_groups.h"

namespace fabric {

namespace {

class IbftRun final : public PlatformRun {
 public:
  explicit IbftRun(IbftConfig config) : config_(std::move(config)) {}

  void describe_ports(PortCatalog& rec) const override {
    // Every node is a user port; its leaf switch stands in the leaf column.
    const IbftTopology t(config_.m, config_.n);
    for (int p = 0; p < t.nodes(); ++p) rec.add_port(p, t.leaf_of(p), "user", 0, 0, 0);
  }

  std::unique_ptr<PlatformTop> build(const std::vector<traffic::FlowSpec>& flows, uint64_t,
                                     Recorder& recorder) const override {
    return std::make_unique<IbftTop>("ibft", config_, flows, recorder);
  }

 private:
  IbftConfig config_;
};

}  // namespace

void IbftPlatform::declare_params(config::ParamRegistry& r) const {
  config::ParamScope declaring(r);
  IbftKeys keys;
}

PlatformResolution IbftPlatform::resolve(const config::Config& config, const SharedRunKeys& keys) const {
  refuse_flows(config, "ibft", "ibft.sources, ibft.group and ibft.message_bytes");
  config::ParamScope reading(config);
  const IbftKeys k;
  IbftConfig b = read_ibft_params(k);
  check_ibft_credit_loop(k, b, config);
  PlatformResolution r;
  r.occupancy_samples = check_sampling(config, keys.sim_time, keys.sample_interval, keys.max_samples, 1);
  const traffic::OneShotGroups groups = traffic::draw_one_shot_groups(b.nodes, b.sources, b.group, keys.seed);
  for (size_t i = 0; i < groups.sources.size(); ++i) {
    traffic::FlowSpec f;
    f.id = FlowId(static_cast<uint32_t>(i));
    f.src = PortId(static_cast<uint32_t>(groups.sources[i]));
    f.name = "s" + std::to_string(groups.sources[i]);
    f.multicast = b.scheme != IbftScheme::unicast;
    for (int d : groups.groups[i]) f.dests.push_back(PortId(static_cast<uint32_t>(d)));
    f.rate_gbps = b.link.rate_gbps;
    f.message = traffic::MessageSizeDistribution::parse(k.message_bytes.key(), std::to_string(b.message_bytes));
    f.max_frames = 1;
    r.flows.push_back(std::move(f));
  }
  // A largest packet's time on the wire, its flight and a switch's routing.
  const uint32_t largest = b.mtu != 0 && b.mtu < b.message_bytes ? b.mtu : b.message_bytes;
  r.quiet_time = static_cast<Picos>(largest * 8000.0 / b.link.rate_gbps) + to_ps(b.link.propagation) + b.sw.routing;
  r.run = std::make_unique<IbftRun>(std::move(b));
  return r;
}

}  // namespace fabric
