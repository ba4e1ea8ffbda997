#include "platforms/backplane/backplane_params.h"

#include <string>

#include "model/core/sim_time.h"

namespace fabric {

using config::ParamSpec;
using config::ParamType;

void declare_backplane_params(config::ParamRegistry& r) {
  r.declare({"backplane.ports", ParamType::integer, "16", "", "ports of the shared-memory switch", 2, 64});
  r.declare({"backplane.stations", ParamType::integer, "4", "",
             "end stations (workload generators), on switch ports 0 .. stations-1; the other ports are idle", 1, 64});
  r.declare({"backplane.memory", ParamType::bytes, "1536KB", "B",
             "the switch's one shared memory; a frame that does not fit is discarded whole", 64, 1 << 30});
  r.declare({"backplane.pause", ParamType::boolean, "false", "",
             "802.3x on the switch: XOFF to every station at backplane.xoff bytes of total memory occupancy, XON at "
             "backplane.xon"});
  r.declare({"backplane.xoff", ParamType::bytes, "16KB", "B",
             "802.3x High threshold: XOFF when the total occupancy reaches it (at most backplane.memory)", 1, 1 << 30});
  r.declare({"backplane.xon", ParamType::bytes, "", "B",
             "802.3x Low threshold: XON when the occupancy falls to it (at most backplane.xoff); unset: "
             "backplane.xoff / 2", 0, 1 << 30});
  r.declare({"backplane.pause_quanta", ParamType::integer, "65535", "quanta",
             "pause time an XOFF carries, in quanta of 512 bit times; XOFF is sent again if the memory is still at "
             "or above High when it would run out", 1, 65535});
  r.declare({"backplane.pause_frame_bytes", ParamType::bytes, "64", "B", "size of a PAUSE frame", 64, 1518});
  r.declare({"backplane.forwarding_latency", ParamType::duration, "0", "ps",
             "the switch's forwarding latency beyond store and forward", 0, 1e9});
  r.declare({"backplane.link_gbps", ParamType::rate, "10", "Gb/s", "rate of every station-switch link", 0.001, 400});
  r.declare({"backplane.link_delay", ParamType::duration, "150ns", "ps",
             "propagation delay of every station-switch link (about 30 m)", 0, 1e9});
  r.declare({"backplane.nic_buffer", ParamType::bytes, "2KB", "B",
             "an end station's NIC buffer: the application blocks while a frame does not fit", 64, 1 << 30});
  r.declare({"backplane.mac_buffer", ParamType::bytes, "2KB", "B", "an end station's MAC transmit buffer", 64,
             1 << 30});
  r.declare({"backplane.warmup", ParamType::duration, "0", "ps",
             "the run summary's throughput and latency count deliveries from this time on (every frame is "
             "recorded regardless; fabric-report uses it too)",
             0, double(kLatestConfiguredTime)});
}

BackplaneConfig read_backplane_params(const config::Config& c, uint32_t largest_frame_bytes) {
  BackplaneConfig b;
  BackplaneSwitchParams& s = b.sw;
  s.ports = static_cast<int>(c.get_int("backplane.ports"));
  s.stations = static_cast<int>(c.get_int("backplane.stations"));
  if (s.stations > s.ports)
    c.fail("backplane.stations", "1 .. backplane.ports (" + std::to_string(s.ports) + ")");
  s.memory_bytes = static_cast<uint32_t>(c.get_bytes("backplane.memory"));
  const uint32_t nic = static_cast<uint32_t>(c.get_bytes("backplane.nic_buffer"));
  const uint32_t mac = static_cast<uint32_t>(c.get_bytes("backplane.mac_buffer"));
  const std::string frame = std::to_string(largest_frame_bytes) + " B";
  if (s.memory_bytes < largest_frame_bytes)
    c.fail("backplane.memory", "at least the largest frame the flows send, " + frame);
  if (nic < largest_frame_bytes) c.fail("backplane.nic_buffer", "at least the largest frame the flows send, " + frame);
  if (mac < largest_frame_bytes) c.fail("backplane.mac_buffer", "at least the largest frame the flows send, " + frame);
  s.pause = c.get_bool("backplane.pause");
  s.xoff.high = static_cast<uint32_t>(c.get_bytes("backplane.xoff"));
  s.xoff.low = c.is_set("backplane.xon") ? static_cast<uint32_t>(c.get_bytes("backplane.xon")) : s.xoff.high / 2;
  if (s.xoff.low > s.xoff.high)
    c.fail("backplane.xon", "at most backplane.xoff (" + std::to_string(s.xoff.high) + " B)");
  if (s.pause && s.xoff.high > s.memory_bytes)
    c.fail("backplane.xoff", "at most backplane.memory (" + std::to_string(s.memory_bytes) + " B)");
  s.xoff_quanta = static_cast<uint16_t>(c.get_int("backplane.pause_quanta"));
  s.pause_frame_bytes = static_cast<uint32_t>(c.get_bytes("backplane.pause_frame_bytes"));
  s.forwarding_latency = c.get_duration("backplane.forwarding_latency");

  b.link.rate_gbps = c.get_rate_gbps("backplane.link_gbps");
  b.link.propagation = from_ps(c.get_duration("backplane.link_delay"));
  b.link.overhead_bytes = 20;  // preamble, start delimiter and inter-frame gap
  b.link.concurrent_header = false;  // store and forward: a frame arrives with its last byte
  // An XOFF lasts its quanta of 512 bit times at the link's rate.
  s.xoff.xoff_lasts = static_cast<Picos>(s.xoff_quanta * 512.0 * 1000.0 / b.link.rate_gbps + 0.5);

  b.station.nic_buffer_bytes = nic;
  b.station.mac_buffer_bytes = mac;
  b.station.link_gbps = b.link.rate_gbps;
  b.warmup = c.get_duration("backplane.warmup");
  b.station.measure_from = b.warmup;
  return b;
}

}  // namespace fabric
