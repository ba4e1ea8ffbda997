#pragma once
// What a user port's lossless pools must keep free when the port decides to
// send STOP (mechanism 5), as plain C++. The STOP is decided at a frame's
// admission; until the CNA stops, frames still arrive and each is admitted
// whole (its payload and every copy's header, or it waits at the port), so
// the thresholds leave room for all of them:
//
//   window = lookup (frames already at the port, not yet admitted)
//          + preamble + propagation (frames already on the cable)
//          + wait (the PAUSE queued behind what the leaf is sending the CNA)
//          + the PAUSE frame on the wire + propagation
//
// The CNA starts no frame once the PAUSE is in; the frame it is sending then
// finishes, and with the concurrent header the leaf admits a frame at its
// first byte. So every frame whose first byte the CNA sent within the window
// can still be admitted after the STOP: at line rate with the smallest frame,
// window / (smallest frame on the wire) + 1 of them. See docs/model.md,
// "PAUSE and QCN", for the numbers of the default fabric.
#include <cstdint>
#include <optional>

#include "model/core/ids.h"

namespace fabric {

struct PauseRoundTrip {
  double link_gbps = 100;           // the CNA-leaf link
  Picos propagation = 10'000;       // the CNA-leaf cable, one way
  Picos lookup = 6'608;             // a frame's header at the port to its admission
  uint32_t overhead_bytes = 20;     // preamble, start delimiter and gap around each message
  uint32_t header_after_bytes = 8;  // bytes before the leaf sees a frame: the preamble (concurrent header)
  uint32_t pause_frame_bytes = 64;
  uint32_t smallest_frame_bytes = 64;  // the densest arrivals: most frames, most headers, most units
  Picos wait = 0;                      // the PAUSE behind a message already on the leaf's wire to the CNA
};

// Picoseconds `bytes` take on the wire at `gbps`.
double wire_ps(uint32_t bytes, double gbps);

// The window above, and the frames whose admission can still follow a STOP
// decided at an admission (not counting that frame).
double pause_window_ps(const PauseRoundTrip& rt);
uint32_t frames_after_stop(const PauseRoundTrip& rt);

// Header thresholds of a lossless VL's header pool: STOP when more than
// stop_above headers are held, GO when fewer than go_below. The frame that
// crosses stop_above and the frames_after_stop after it, each with up to
// headers_per_frame copies (8 for multicast, 1 for unicast), still find their
// headers; GO comes one such headroom lower (hysteresis), at least at 1 (an
// empty pool). nullopt when the pool is not larger than the headroom.
struct HeaderThresholds {
  uint32_t stop_above;
  uint32_t go_below;
};
uint32_t header_headroom(uint32_t frames_after_stop, uint32_t headers_per_frame);
std::optional<HeaderThresholds> header_thresholds(uint32_t pool, uint32_t frames_after_stop,
                                                  uint32_t headers_per_frame);
// GO for a given STOP threshold: one headroom lower, at least 1.
uint32_t header_go_below(uint32_t stop_above, uint32_t headroom);

// Payload units that can still be admitted after the frame that crossed Qhi:
// small frames take one unit per smallest frame on the wire (the densest
// case), and two of the frames may be the largest (one whose first byte came
// just as the window opened, one as it closed). Qhi + the crossing frame +
// this must fit the lossless pool.
uint32_t units_after_stop(uint32_t frames_after_stop, uint32_t max_frame_units);

}  // namespace fabric
