#include "model/link/link_totals.h"

namespace fabric {

void record_link_totals(Recorder& recorder, const Link& link, const EntityPlace& ends, Picos end) {
  // A link that carried nothing has no rows (a missing row is 0): the full
  // fabric has 9,472 links, and a small study uses a few of them.
  if (link.messages() == 0) return;
  const EntityId entity = recorder.declare(EntityKind::link, link.basename(), -1, ends);
  recorder.total(entity, metric::messages, static_cast<double>(link.messages()));
  recorder.total(entity, metric::bytes, static_cast<double>(link.bytes()));
  if (link.data_bytes() > 0) recorder.total(entity, metric::data_bytes, static_cast<double>(link.data_bytes()));
  if (end > 0) recorder.total(entity, metric::utilization, static_cast<double>(link.busy_time(end)) / end);
}

}  // namespace fabric
