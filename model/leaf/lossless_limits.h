#pragma once
// Lossless means lossless (issue 18 §4): checks, before simulation, that
// every lossless pool holds one largest frame and that PAUSE can keep the
// user ports' lossless pools from overflowing, and derives the header STOP
// and GO thresholds from the PAUSE round trip (pause_headroom.h) unless
// leaf.pause.headers_hi / headers_lo are given. A configuration that cannot
// be lossless is bad input: the key's fail() names the key and its
// allowed range, and fabricsim exits with status 2.
#include <cstdint>

#include "config/config.h"
#include "model/leaf/leaf_params.h"
#include "model/leaf/pause_headroom.h"

namespace fabric {

// `round_trip`: the CNA-leaf link as the user ports see it, with no wait
// behind a frame on the leaf's own wire (the header thresholds leave that out:
// see docs/model.md; the payload check puts a largest frame there).
// `headers_per_frame`: the most headers one lossless frame can take at a user
// port (kMaxLocalFanout when a multicast flow runs on a lossless priority,
// else 1).
void apply_lossless_limits(const LeafKeys& keys, LeafParams& params, const PauseRoundTrip& round_trip,
                           uint32_t largest_frame_bytes, uint32_t headers_per_frame);

}  // namespace fabric
