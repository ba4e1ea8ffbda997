#pragma once
// backplane.* keys, each declared once (config/param.h): the 802.3x
// backplane switch and its end stations (platforms.md, E12); the platform's
// parameters read from them, and its check of the PAUSE headroom.
#include "config/param.h"
#include "model/backplane/backplane_switch.h"
#include "model/backplane/end_station.h"
#include "model/link/link.h"

namespace fabric {

struct BackplaneKeys {
  config::Param<config::Integer> ports{"backplane.ports", "16", "", "ports of the shared-memory switch", 2, 64};
  config::Param<config::Integer> stations{
      "backplane.stations",
      "4",
      "",
      "end stations (workload generators), on switch ports 0 .. stations-1; the other ports are idle",
      1,
      64};
  config::Param<config::Bytes> memory{"backplane.memory",
                                      "1536KB",
                                      "B",
                                      "the switch's one shared memory; a frame that does not fit is discarded whole",
                                      64,
                                      1 << 30};
  config::Param<config::Boolean> pause{
      "backplane.pause", "false", "",
      "802.3x on the switch: XOFF to every station at backplane.xoff bytes of total memory occupancy, XON at "
      "backplane.xon"};
  config::Param<config::Bytes> xoff{
      "backplane.xoff",
      "16KB",
      "B",
      "802.3x High threshold: XOFF when the total occupancy reaches it (at most backplane.memory)",
      1,
      1 << 30};
  config::Param<config::Bytes> xon{
      "backplane.xon",
      "",
      "B",
      "802.3x Low threshold: XON when the occupancy falls to it (at most backplane.xoff); unset: "
      "backplane.xoff / 2",
      0,
      1 << 30};
  config::Param<config::Integer> pause_quanta{
      "backplane.pause_quanta",
      "65535",
      "quanta",
      "pause time an XOFF carries, in quanta of 512 bit times; XOFF is sent again if the memory is still at "
      "or above High when it would run out",
      1,
      65535};
  config::Param<config::Bytes> pause_frame_bytes{"backplane.pause_frame_bytes", "64", "B",
                                                 "size of a PAUSE frame",       64,   1518};
  config::Param<config::Duration> forwarding_latency{
      "backplane.forwarding_latency", "0", "ps", "the switch's forwarding latency beyond store and forward", 0, 1e9};
  config::Param<config::Rate> link_gbps{
      "backplane.link_gbps", "10", "Gb/s", "rate of every station-switch link", 0.001, 400};
  config::Param<config::Duration> link_delay{
      "backplane.link_delay", "150ns", "ps", "propagation delay of every station-switch link (about 30 m)", 0, 1e9};
  config::Param<config::Bytes> nic_buffer{
      "backplane.nic_buffer",
      "2KB",
      "B",
      "an end station's NIC buffer: the application blocks while a frame does not fit",
      64,
      1 << 30};
  config::Param<config::Bytes> mac_buffer{
      "backplane.mac_buffer", "2KB", "B", "an end station's MAC transmit buffer", 64, 1 << 30};
  config::Param<config::Duration> warmup{
      "backplane.warmup",
      "0",
      "ps",
      "the run summary's throughput and latency count deliveries from this time on (every frame is "
      "recorded regardless; fabric-report uses it too)",
      0,
      double(kLatestConfiguredTime)};
};

struct BackplaneConfig {
  BackplaneSwitchParams sw;
  EndStationParams station;
  LinkParams link;
  Picos warmup = 0;
};

// Throws ConfigError naming the key at fault: Low above High, a threshold
// above the memory, a memory smaller than the largest frame ...
BackplaneConfig read_backplane_params(const BackplaneKeys& keys, uint32_t largest_frame_bytes);
// With 802.3x on: the memory above High must take what still arrives after
// an XOFF is decided, from every station (a warning otherwise: frames are
// discarded despite 802.3x). Noted in `config`.
// The latest a frame a station started before an XOFF reached it arrives at
// the switch after the XOFF was decided: the XOFF behind a frame on the
// switch's wire, its own time on the wire, the link both ways and the frame
// the station was sending (the PAUSE obedience invariant's window).
Picos backplane_pause_window(const BackplaneConfig& b, uint32_t largest_frame_bytes);

void check_backplane_headroom(const BackplaneKeys& keys, const BackplaneConfig& b, uint32_t largest_frame_bytes,
                              const config::Config& config);

}  // namespace fabric
