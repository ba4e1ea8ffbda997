#include "platforms/backplane/backplane_platform.h"

#include <algorithm>
#include <set>

#include "model/core/sim_time.h"
#include "platforms/backplane/backplane_params.h"
#include "platforms/backplane/backplane_top.h"
#include "platforms/common/sampling_guard.h"
#include "traffic/message_source.h"
#include "traffic/traffic_params.h"

namespace fabric {

namespace {

class BackplaneRun final : public PlatformRun {
 public:
  explicit BackplaneRun(BackplaneConfig config) : config_(std::move(config)) {}

  void describe_ports(PortCatalog& rec) const override {
    // Every station port is a user port of the one switch (leaf 0).
    for (int p = 0; p < config_.sw.stations; ++p) rec.add_port(p, 0, "user", 0, 0, 0);
  }

  std::unique_ptr<PlatformTop> build(const std::vector<traffic::FlowSpec>& flows, uint64_t seed,
                                     Recorder& recorder) const override {
    return std::make_unique<BackplaneTop>("backplane", config_, flows, seed, recorder);
  }

 private:
  BackplaneConfig config_;
};

// The largest frame a flow sends: a message's full frames, or its frame size.
uint32_t largest_frame(const std::vector<traffic::FlowSpec>& flows) {
  uint32_t largest = traffic::kMinFrameBytes;
  for (const traffic::FlowSpec& f : flows) {
    const uint64_t payload =
        f.message ? std::min<uint64_t>(f.message->cap(), traffic::kMaxPayloadBytes) : f.size.largest();
    const uint64_t frame = f.message ? payload + traffic::kHeaderFcsBytes : payload;
    largest = std::max<uint32_t>(largest, static_cast<uint32_t>(frame));
  }
  return largest;
}

// A station runs one closed-loop application, unicast to other stations.
void check_flows(const config::Config& c, const std::vector<traffic::FlowSpec>& flows, int stations) {
  const config::ParamScope reading(c);
  const traffic::TrafficKeys keys;
  if (keys.pattern.pattern.value() != "none")
    keys.pattern.pattern.fail("none on platform backplane: its stations run closed-loop flows (flow.NAME.*)");
  std::set<uint32_t> sources;
  const std::string station_ports = "stations 0 .. " + std::to_string(stations - 1) + " (backplane.stations)";
  for (const traffic::FlowSpec& f : flows) {
    const std::string prefix = "flow." + f.name + ".";
    if (!f.closed_loop)
      c.fail(prefix + "closed_loop", "true on platform backplane: its stations run closed-loop applications");
    if (c.is_set(prefix + "rate_gbps"))
      c.fail(prefix + "rate_gbps", "unset: a closed-loop source sends as fast as its end station takes frames");
    if (f.multicast) c.fail(prefix + "kind", "unicast on platform backplane");
    if (raw(f.src) >= static_cast<uint32_t>(stations)) c.fail(prefix + "src", station_ports);
    for (PortId d : f.dests)
      if (raw(d) >= static_cast<uint32_t>(stations)) c.fail(prefix + "dst", station_ports);
    if (!sources.insert(raw(f.src)).second)
      c.fail(prefix + "src", "a station no other flow starts from: one application per station");
  }
}

}  // namespace

void BackplanePlatform::declare_params(config::ParamRegistry& r) const {
  config::ParamScope declaring(r);
  BackplaneKeys keys;
}

PlatformResolution BackplanePlatform::resolve(const config::Config& config, const SharedRunKeys& keys) const {
  config::ParamScope reading(config);
  const BackplaneKeys k;
  const int stations = static_cast<int>(k.stations.value());
  const double line_gbps = k.link_gbps;
  PlatformResolution r;
  r.flows = traffic::read_flows(config, stations, line_gbps, keys.seed, stations);
  check_flows(config, r.flows, stations);
  const uint32_t largest = largest_frame(r.flows);
  BackplaneConfig b = read_backplane_params(k, largest);
  check_backplane_headroom(k, b, largest, config);
  b.sw.pause_obeyed_within = backplane_pause_window(b, largest);
  r.occupancy_samples = check_sampling(config, keys.sim_time, keys.sample_interval, keys.max_samples, 1);
  // A largest frame's time on the wire, its cable and the switch's latency.
  r.quiet_time = static_cast<Picos>((largest + b.link.overhead_bytes) * 8000.0 / b.link.rate_gbps) +
                 to_ps(b.link.propagation) + b.sw.forwarding_latency;
  r.run = std::make_unique<BackplaneRun>(std::move(b));
  return r;
}

}  // namespace fabric
