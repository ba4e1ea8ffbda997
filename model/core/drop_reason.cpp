#include "model/core/drop_reason.h"

namespace fabric {

const char* to_string(DropReason reason) {
  switch (reason) {
    case DropReason::payload:
      return "payload";
    case DropReason::header_pool:
      return "header_pool";
    case DropReason::header_red:
      return "header_red";
    case DropReason::header_memory:
      return "header_memory";
    case DropReason::voq_tail:
      return "voq_tail";
    case DropReason::voq_head:
      return "voq_head";
    case DropReason::link:
      return "link";
    case DropReason::shared_memory:
      return "shared_memory";
    case DropReason::host_queue:
      return "host_queue";
    case DropReason::other:
      return "other";
  }
  return "other";
}

}  // namespace fabric
