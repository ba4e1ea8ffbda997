#include "platforms/backplane/backplane_params.h"

#include <cmath>
#include <string>

#include "model/core/sim_time.h"
#include "model/link/link_sizing.h"
#include "platforms/common/quantity_text.h"

namespace fabric {

BackplaneConfig read_backplane_params(const BackplaneKeys& k, uint32_t largest_frame_bytes) {
  BackplaneConfig b;
  BackplaneSwitchParams& s = b.sw;
  s.ports = static_cast<int>(k.ports.value());
  s.stations = static_cast<int>(k.stations.value());
  if (s.stations > s.ports) k.stations.fail("1 .. backplane.ports (" + std::to_string(s.ports) + ")");
  s.memory_bytes = static_cast<uint32_t>(k.memory.value());
  const uint32_t nic = static_cast<uint32_t>(k.nic_buffer.value());
  const uint32_t mac = static_cast<uint32_t>(k.mac_buffer.value());
  const std::string frame = std::to_string(largest_frame_bytes) + " B";
  if (s.memory_bytes < largest_frame_bytes) k.memory.fail("at least the largest frame the flows send, " + frame);
  if (nic < largest_frame_bytes) k.nic_buffer.fail("at least the largest frame the flows send, " + frame);
  if (mac < largest_frame_bytes) k.mac_buffer.fail("at least the largest frame the flows send, " + frame);
  s.pause = k.pause.value();
  s.xoff.high = static_cast<uint32_t>(k.xoff.value());
  s.xoff.low = k.xon.has_value() ? static_cast<uint32_t>(k.xon.value()) : s.xoff.high / 2;
  if (s.xoff.low > s.xoff.high) k.xon.fail("at most backplane.xoff (" + std::to_string(s.xoff.high) + " B)");
  if (s.pause && s.xoff.high > s.memory_bytes)
    k.xoff.fail("at most backplane.memory (" + std::to_string(s.memory_bytes) + " B)");
  s.xoff_quanta = static_cast<uint16_t>(k.pause_quanta.value());
  s.pause_frame_bytes = static_cast<uint32_t>(k.pause_frame_bytes.value());
  s.forwarding_latency = k.forwarding_latency.value();

  b.link.rate_gbps = k.link_gbps.value();
  b.link.propagation = from_ps(k.link_delay.value());
  b.link.overhead_bytes = 20;        // preamble, start delimiter and inter-frame gap
  b.link.concurrent_header = false;  // store and forward: a frame arrives with its last byte
  // An XOFF lasts its quanta of 512 bit times at the link's rate.
  s.xoff.xoff_lasts = static_cast<Picos>(s.xoff_quanta * 512.0 * 1000.0 / b.link.rate_gbps + 0.5);

  b.station.nic_buffer_bytes = nic;
  b.station.mac_buffer_bytes = mac;
  b.station.link_gbps = b.link.rate_gbps;
  b.warmup = k.warmup.value();
  b.station.measure_from = b.warmup;
  return b;
}

Picos backplane_pause_window(const BackplaneConfig& b, uint32_t largest_frame_bytes) {
  const double frame_ps = serialization_ps(largest_frame_bytes + b.link.overhead_bytes, b.link.rate_gbps);
  return static_cast<Picos>(std::ceil(
             2 * frame_ps + serialization_ps(b.sw.pause_frame_bytes + b.link.overhead_bytes, b.link.rate_gbps) +
             2.0 * double(to_ps(b.link.propagation)))) +
         1;
}

void check_backplane_headroom(const BackplaneKeys& k, const BackplaneConfig& b, uint32_t largest_frame_bytes,
                              const config::Config& c) {
  if (!b.sw.pause) return;
  // After the XOFF is decided: it waits behind a frame on the switch's wire
  // to the station, goes out and flies; the station finishes the frame it
  // is sending, which flies back. Every station may do so.
  const double frame_ps = serialization_ps(largest_frame_bytes + b.link.overhead_bytes, b.link.rate_gbps);
  const double window_ps = frame_ps +
                           serialization_ps(b.sw.pause_frame_bytes + b.link.overhead_bytes, b.link.rate_gbps) +
                           2.0 * double(to_ps(b.link.propagation));
  const double per_station = bytes_in(window_ps, b.link.rate_gbps) + largest_frame_bytes;
  const double headroom = per_station * b.sw.stations;
  const double room = double(b.sw.memory_bytes) - double(b.sw.xoff.high);
  c.note_check({"backplane.xoff + the PAUSE headroom <= backplane.memory",
                {k.xoff.key(), k.memory.key(), k.stations.key(), k.link_delay.key(), k.link_gbps.key()},
                room >= headroom,
                k.memory.key() + " " + bytes_text(double(b.sw.memory_bytes)) + " - " + k.xoff.key() + " " +
                    bytes_text(double(b.sw.xoff.high)) + " = " + bytes_text(room) + " < " + bytes_text(headroom) +
                    " that " + std::to_string(b.sw.stations) + " stations can still send after an XOFF is decided (" +
                    bytes_text(per_station) + " each: " + time_text(window_ps) + " of a " +
                    gbps_text(b.link.rate_gbps) + " link, a frame on the wire, the XOFF and 2 x " +
                    time_text(double(to_ps(b.link.propagation))) +
                    " of flight, and the frame the station is sending): frames will be discarded despite 802.3x"});
}

}  // namespace fabric
