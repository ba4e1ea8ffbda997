#pragma once
// Header admission at a lossy VL (mechanism 4, step 2), as plain C++: each
// copy's header of an arriving frame gets its own decision against the
// occupancy of its VL's header pool, by the policy leaf.header.policy
// names, each a file of its own behind HeaderAdmissionPolicy:
//   fixed_order (fixed_order_admission.h), random_order
//   (random_order_admission.h): a hard threshold Hth, the copies tried in
//   the MCBC's order or in a random order drawn per frame;
//   red (red_admission.h): accept below Hlow, drop above Hhi, between them
//   drop with probability p.
// The shell adds what is not a policy: the pool's and the header memory's
// physical capacity, and the VOQ threshold.
#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "model/leaf/header_admission_policy.h"

namespace fabric {

class HeaderAdmission {
 public:
  enum class Policy { fixed_order, random_order, red };
  // From the leaf.header.* keys, which hold the defaults.
  struct Params {
    Policy policy = Policy::red;
    uint32_t hth = 0;       // hard threshold (fixed and random order)
    uint32_t red_high = 0;  // Hhi
    uint32_t red_low = 0;   // Hlow
    double red_p = 0;
  };

  explicit HeaderAdmission(const Params& params);

  // Whether one more header may join a pool that holds `used` headers.
  bool accept(uint32_t used, std::mt19937_64& rng) const { return policy_->accept(used, rng); }
  // The order in which a frame's n copies are tried.
  CopyOrder order(size_t n, std::mt19937_64& rng) const { return policy_->order(n, rng); }
  const Params& params() const { return params_; }

  static Policy parse(const std::string& name);

 private:
  Params params_;
  std::shared_ptr<const HeaderAdmissionPolicy> policy_;  // shared: the unit's copies hold one policy
};

}  // namespace fabric
