#pragma once
// One policy of the VOQ threshold Vth at a lossy VL (mechanism 4, step 3;
// the key leaf.voq.drop chooses it): what becomes of a copy that arrives at
// a VOQ already holding Vth units or more. Each policy is a file of its own
// (no_voq_drop.h, voq_tail_drop.h, voq_head_drop.h). Plain C++.
#include <cstdint>
#include <memory>

namespace fabric {

enum class VoqDropDecision {
  admit,          // the copy joins the VOQ
  drop_arriving,  // the arriving copy is dropped (tail drop)
  drop_head,      // the copy joins, and the VOQ's oldest copy is dropped (head drop)
};

class VoqDropPolicy {
 public:
  enum class Kind { off, tail, head };
  virtual ~VoqDropPolicy() = default;
  // A copy arrives at a VOQ whose waiting copies hold `waiting_units`.
  virtual VoqDropDecision on_arrival(uint32_t waiting_units) const = 0;
  // The policy `kind` with threshold Vth of `threshold_units`.
  static std::shared_ptr<const VoqDropPolicy> make(Kind kind, uint32_t threshold_units);
};

}  // namespace fabric
