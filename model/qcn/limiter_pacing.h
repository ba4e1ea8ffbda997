#pragma once
// When a rate-limited flow's next frame may leave (mechanisms.md §7: the
// rate limiter holds the flow to its current rate CR), plain C++. Each
// frame and its 20 B of preamble and gap take their time at CR, counted
// from when the frame could have left, not from when it did: a frame the
// link kept waiting (another flow's frame on the wire) does not push the
// flow's later frames back, so the flow keeps CR on a shared link. The
// credit saved is at most one frame's time, so an idle flow does not come
// back with a burst.
#include <algorithm>
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

inline Picos limiter_next_eligible(Picos eligible_at, Picos sent_at, uint32_t bytes, double rate_gbps) {
  const auto interval = static_cast<Picos>((bytes + 20) * 8 * 1000.0 / rate_gbps);  // Gb/s = bits per ns
  return std::max(eligible_at, sent_at - interval) + interval;
}

}  // namespace fabric
