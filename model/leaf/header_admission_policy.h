#pragma once
// One policy of header admission at a lossy VL (mechanism 4, step 2; the
// key leaf.header.policy chooses it, HeaderAdmission holds it): whether one
// more header may join its VL's header pool, and in which order a frame's
// copies are tried. Plain C++.
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>

#include "model/multicast/mcbc_table.h"

namespace fabric {

using CopyOrder = std::array<uint8_t, kMaxLocalFanout>;

class HeaderAdmissionPolicy {
 public:
  virtual ~HeaderAdmissionPolicy() = default;
  // Whether one more header may join a pool that holds `used` headers.
  virtual bool accept(uint32_t used, std::mt19937_64& rng) const = 0;
  // The order in which a frame's n copies are tried: the MCBC's (d1 first)
  // unless the policy says otherwise.
  virtual CopyOrder order(size_t n, std::mt19937_64& rng) const;

 protected:
  static CopyOrder mcbc_order(size_t n);
};

}  // namespace fabric
