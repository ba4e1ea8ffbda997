#pragma once
// A link's totals at the end of a run, under the link's entity (its name,
// with `ends`: from its sender to its receiver): messages, bytes on the
// wire and utilization.
#include "model/link/link.h"
#include "model/recording/recorder.h"

namespace fabric {

void record_link_totals(Recorder& recorder, const Link& link, const EntityPlace& ends, Picos end);

}  // namespace fabric
