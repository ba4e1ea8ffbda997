#include "model/leaf/voq_drop_policy.h"

#include "model/leaf/no_voq_drop.h"
#include "model/leaf/voq_head_drop.h"
#include "model/leaf/voq_tail_drop.h"

namespace fabric {

std::shared_ptr<const VoqDropPolicy> VoqDropPolicy::make(Kind kind, uint32_t threshold_units) {
  switch (kind) {
    case Kind::off:
      return std::make_shared<NoVoqDrop>();
    case Kind::tail:
      return std::make_shared<VoqTailDrop>(threshold_units);
    case Kind::head:
      break;
  }
  return std::make_shared<VoqHeadDrop>(threshold_units);
}

}  // namespace fabric
