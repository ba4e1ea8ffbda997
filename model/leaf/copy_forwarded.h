#pragma once
// What VOQ sync learns when a copy of a multicast frame leaves its VOQ,
// forwarded or dropped from the head (the two count the same): the frame's
// last copy counts down the VOQs that sent it before.
#include "model/leaf/leaf_ingress.h"
#include "model/multicast/sync_cam.h"

namespace fabric {

inline void count_copy_forwarded(SyncCam* sync, MulticastProgress& progress, const StoredFrame& frame, uint32_t voq,
                                 Cycle now) {
  const bool last_copy = progress.copies_started + 1u >= frame.copies;
  if (sync) sync->on_copy_forwarded(voq, frame.units, last_copy, progress.started.data(), progress.copies_started, now);
  progress.started[progress.copies_started++] = voq;
}

}  // namespace fabric
