#include "model/leaf/pause_headroom.h"

#include <cmath>

namespace fabric {

double wire_ps(uint32_t bytes, double gbps) { return bytes * 8000.0 / gbps; }

double pause_window_ps(const PauseRoundTrip& rt) {
  return static_cast<double>(rt.lookup) + wire_ps(rt.header_after_bytes, rt.link_gbps) +
         2.0 * static_cast<double>(rt.propagation) + static_cast<double>(rt.wait) +
         wire_ps(rt.pause_frame_bytes + rt.overhead_bytes, rt.link_gbps);
}

uint32_t frames_after_stop(const PauseRoundTrip& rt) {
  const double spacing = wire_ps(rt.smallest_frame_bytes + rt.overhead_bytes, rt.link_gbps);
  // First bytes spaced `spacing` apart in a window of this length: at most
  // floor(window / spacing) + 1 of them, whatever the phase.
  return static_cast<uint32_t>(std::floor(pause_window_ps(rt) / spacing)) + 1;
}

uint32_t header_headroom(uint32_t frames_after_stop, uint32_t headers_per_frame) {
  return (frames_after_stop + 1) * headers_per_frame;  // + 1: the frame that crossed the threshold
}

uint32_t header_go_below(uint32_t stop_above, uint32_t headroom) {
  return stop_above > headroom ? stop_above - headroom : 1;
}

std::optional<HeaderThresholds> header_thresholds(uint32_t pool, uint32_t frames_after_stop,
                                                  uint32_t headers_per_frame) {
  const uint32_t headroom = header_headroom(frames_after_stop, headers_per_frame);
  if (pool <= headroom) return std::nullopt;
  const uint32_t stop_above = pool - headroom;
  return HeaderThresholds{stop_above, header_go_below(stop_above, headroom)};
}

uint32_t units_after_stop(uint32_t frames_after_stop, uint32_t max_frame_units) {
  return frames_after_stop + 2 * max_frame_units;
}

}  // namespace fabric
