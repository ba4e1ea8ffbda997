#pragma once
// The copies a request, a grant or a withdrawing cancel is for, by the
// source VOQ's request numbers (one per copy, in the order it queued them):
// requests and grants are per copy, a merged one covers a run of them.
// Plain C++, for the credit arbiter and the leaf's ingress.
#include <cstdint>

namespace fabric {

struct CopyRange {
  uint32_t first = 0;
  uint32_t last = 0;
};

}  // namespace fabric
