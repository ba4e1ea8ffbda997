#include "model/link/link_census.h"

namespace fabric {

LinkCensus::Shelf LinkCensus::shelves_[Worker::kMax];

const char* LinkCensus::name(int kind) {
  if (kind == 0) return "frame";
  if (kind == 1) return "packet";
  return to_string(static_cast<ControlKind>(kind - 2));
}

LinkCensus::Counts LinkCensus::totals() {
  Counts sum{};
  for (const Shelf& s : shelves_)
    for (int k = 0; k < kKinds; ++k) sum[k] += s.counts[k];
  return sum;
}

void LinkCensus::reset() {
  for (Shelf& s : shelves_) s.counts = {};
}

}  // namespace fabric
