#pragma once
// Header admission at a lossy VL (mechanism 4, step 2), as plain C++: each
// copy's header of an arriving frame gets its own decision against the
// occupancy of its VL's header pool.
//   fixed_order / random_order: hard threshold Hth, drop when the pool holds
//     Hth or more; the copies are tried in the MCBC's order (d1 first) or in
//     a random order drawn per frame;
//   red: accept below Hlow, drop above Hhi, between them drop with
//     probability p.
// The shell adds what is not a policy: the pool's and the header memory's
// physical capacity, and the VOQ threshold.
#include <array>
#include <cstdint>
#include <random>
#include <string>

#include "model/multicast/mcbc_table.h"

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

  explicit HeaderAdmission(const Params& params) : params_(params) {}

  // Whether one more header may join a pool that holds `used` headers.
  bool accept(uint32_t used, std::mt19937_64& rng) const;
  // The order in which a frame's n copies are tried: 0, 1, ... n-1, or a
  // random permutation of them (random_order).
  std::array<uint8_t, kMaxLocalFanout> order(size_t n, std::mt19937_64& rng) const;
  const Params& params() const { return params_; }

  static Policy parse(const std::string& name);

 private:
  Params params_;
};

}  // namespace fabric
