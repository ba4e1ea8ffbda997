#pragma once
// A link's totals at the end of a run, as samples under the link's name:
// messages, bytes on the wire and utilization.
#include "model/link/link.h"
#include "model/recording/recorder.h"

namespace fabric {

void record_link_totals(Recorder& recorder, const Link& link, Picos end);

}  // namespace fabric
