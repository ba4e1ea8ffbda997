#include "model/leaf/lossless_limits.h"

#include <cmath>
#include <string>

namespace fabric {

namespace {

std::string bytes_of(uint32_t units, const LeafParams& p) {
  return std::to_string(uint64_t(units) * p.packet_bytes) + " B";
}

std::string units_of(uint32_t units, const LeafParams& p) {
  return std::to_string(units) + " units (" + bytes_of(units, p) + ")";
}

// Every lossless pool, and a header pool for one frame's copies.
void check_one_frame_fits(const LeafKeys& k, const LeafParams& p, uint32_t headers_per_frame) {
  const std::string frame = "at least one largest frame, " + bytes_of(p.max_frame_units, p);
  if (p.lossless_pool_units < p.max_frame_units) k.ingress_lossless_pool.fail(frame);
  if (p.surrogate_lossless_pool_units < p.max_frame_units) k.surrogate_lossless_pool.fail(frame);
  if (p.egress_pool_units < p.max_frame_units) k.egress_pool.fail(frame);
  if (p.surrogate_egress_pool_units < p.max_frame_units) k.surrogate_egress_pool.fail(frame);
  if (p.header_pool_lossless < headers_per_frame)
    k.header_pool_lossless.fail("at least " + std::to_string(headers_per_frame) + " headers, one per copy of a frame");
}

// Qhi + the frame that crossed it + what can still arrive must fit the pool.
void check_payload_headroom(const LeafKeys& k, const LeafParams& p, PauseRoundTrip behind_a_frame,
                            uint32_t largest_frame_bytes) {
  behind_a_frame.wait = static_cast<Picos>(
      std::ceil(wire_ps(largest_frame_bytes + behind_a_frame.overhead_bytes, behind_a_frame.link_gbps)));
  const uint32_t after = units_after_stop(frames_after_stop(behind_a_frame), p.max_frame_units);
  const uint32_t reserve = p.max_frame_units + after;
  const std::string why = "a frame may cross Qhi (" + units_of(p.max_frame_units, p) + ") and " + units_of(after, p) +
                          " more can still arrive after the STOP";
  if (p.lossless_pool_units <= reserve)
    k.ingress_lossless_pool.fail("at least " + bytes_of(reserve + 1, p) + ": " + why);
  const uint32_t qhi_max = p.lossless_pool_units - reserve;
  if (p.pause_qhi_units > qhi_max)
    k.pause_qhi.fail("256 B .. " + bytes_of(qhi_max, p) + ", leaf.ingress.lossless_pool (" +
                     bytes_of(p.lossless_pool_units, p) + ") less what it must keep free: " + why);
}

// The header STOP and GO: derived, or given and no later than derived.
void set_header_thresholds(const LeafKeys& k, LeafParams& p, const PauseRoundTrip& round_trip,
                           uint32_t headers_per_frame) {
  const uint32_t after = frames_after_stop(round_trip);
  const uint32_t headroom = header_headroom(after, headers_per_frame);
  const std::optional<HeaderThresholds> derived = header_thresholds(p.header_pool_lossless, after, headers_per_frame);
  if (!derived)
    k.header_pool_lossless.fail("at least " + std::to_string(headroom + 1) + " headers: " + std::to_string(after + 1) +
                                " frames (the one that crosses the STOP threshold and " + std::to_string(after) +
                                " more in the PAUSE round trip) of up to " + std::to_string(headers_per_frame) +
                                " headers each must still find theirs");
  if (p.pause_headers_hi == 0) p.pause_headers_hi = derived->stop_above;
  if (p.pause_headers_hi > derived->stop_above)
    k.pause_headers_hi.fail("0 (derived: " + std::to_string(derived->stop_above) + ") or 1 .. " +
                            std::to_string(derived->stop_above) + ", leaf.header_pool.lossless less " +
                            std::to_string(headroom) + " headers kept for what arrives after the STOP");
  if (p.pause_headers_lo == 0) p.pause_headers_lo = header_go_below(p.pause_headers_hi, headroom);
  if (p.pause_headers_lo > p.pause_headers_hi)
    k.pause_headers_lo.fail("0 (derived) or 1 .. leaf.pause.headers_hi = " + std::to_string(p.pause_headers_hi));
}

}  // namespace

void apply_lossless_limits(const LeafKeys& k, LeafParams& p, const PauseRoundTrip& round_trip,
                           uint32_t largest_frame_bytes, uint32_t headers_per_frame) {
  check_one_frame_fits(k, p, headers_per_frame);
  if (!p.pause_enabled) return;  // frames that do not fit wait at the port (LeafIngress::hold)
  check_payload_headroom(k, p, round_trip, largest_frame_bytes);
  set_header_thresholds(k, p, round_trip, headers_per_frame);
}

}  // namespace fabric
