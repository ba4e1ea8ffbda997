#include "platforms/ring/ring_platform.h"

#include <algorithm>
#include <cmath>

#include "model/ring/flow_control.h"
#include "model/ring/ring_frame.h"
#include "platforms/common/own_traffic.h"
#include "platforms/common/sampling_guard.h"
#include "platforms/ring/ring_params.h"
#include "platforms/ring/ring_top.h"

namespace fabric {

namespace {

class RingRun final : public PlatformRun {
 public:
  explicit RingRun(RingConfig config) : config_(std::move(config)) {}

  void describe_ports(PortCatalog& rec) const override {
    // Every station, its ring in the leaf column.
    for (int s = 0; s < config_.rings * config_.stations; ++s) rec.add_port(s, s / config_.stations, "user", 0, 0, 0);
  }

  std::unique_ptr<PlatformTop> build(const std::vector<traffic::FlowSpec>&, uint64_t seed,
                                     Recorder& recorder) const override {
    return std::make_unique<RingTop>("ring", config_, seed, recorder);
  }

 private:
  RingConfig config_;
};

// A flow per station that may send: to the rest of its group, at its share
// of the load (as the run starts).
std::vector<traffic::FlowSpec> ring_flows(const RingConfig& config) {
  std::vector<traffic::FlowSpec> flows;
  for (const ring::RingGroup& g : config.network().groups) {
    for (int s : g.senders) {
      traffic::FlowSpec f;
      f.id = FlowId(static_cast<uint32_t>(s));
      f.name = "s" + std::to_string(s);
      f.src = PortId(static_cast<uint32_t>(s));
      f.multicast = true;
      for (int m : g.members)
        if (m != s) f.dests.push_back(PortId(static_cast<uint32_t>(m)));
      const bool sends = config.pattern == RingPattern::all_to_all || s == g.senders.front();
      f.rate_gbps = sends ? config.load_gbps / config.senders(config.pattern) : 0;
      f.size = traffic::FrameSizeDistribution::parse("ring", std::to_string(ring::kPayloadBytes));
      f.arrival = config.arrival;
      flows.push_back(std::move(f));
    }
  }
  return flows;
}

}  // namespace

void RingPlatform::declare_params(config::ParamRegistry& r) const {
  config::ParamScope declaring(r);
  RingKeys keys;
}

PlatformResolution RingPlatform::resolve(const config::Config& config, const SharedRunKeys& keys) const {
  refuse_flows(config, "ring", "ring.groups, ring.pattern and traffic.load_gbps");
  config::ParamScope reading(config);
  const RingKeys k;
  RingConfig b = read_ring_params(k, config);
  check_ring_limit(k, b, config);
  // Per sampling instant: a busy fraction per segment, the mean SPQ and q.
  int64_t segments = 0;
  for (const auto& ring_positions : b.network().positions) segments += static_cast<int64_t>(ring_positions.size());
  PlatformResolution r;
  r.occupancy_samples = check_sampling(config, keys.sim_time, keys.sample_interval, keys.max_samples, segments + 2);
  r.flows = ring_flows(b);
  // A station may rightly stay quiet for its longest back-off, or a few
  // permit intervals at the lowest load a sender is offered.
  double lowest = b.load_gbps;
  for (const traffic::Phased<double>& p : b.load_schedule) lowest = std::min(lowest, p.value);
  const double permit = ring::kPayloadBytes * 8000.0 * b.senders(RingPattern::all_to_all) / lowest;
  check_backoff_fits(k, b, keys.sim_time);
  const Picos backoff =
      b.station.pacer.backoff ? ring::backoff_wait(b.station.pacer.backoff_d0, b.station.pacer.backoff_d, 10) : 0;
  r.quiet_time = std::max(static_cast<Picos>(8 * permit), backoff) + b.station.observe_every;  // one ticket round trip
  r.run = std::make_unique<RingRun>(std::move(b));
  return r;
}

}  // namespace fabric
