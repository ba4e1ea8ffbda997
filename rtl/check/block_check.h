#pragma once
// Qualifies the RTL blocks of this build (ours, or a user's brought with
// FABRICSIM_RTL_*) against the C++ model: each size the build verilated,
// driven in lockstep on seeded adversarial stimulus (traffic/
// block_stimulus.h), with and without sync timeouts. The first mismatch
// ends the check with the block, the size, the seed, the cycle, the call
// with its inputs and both outputs.
#include <cstdint>
#include <iosfwd>
#include <string>

namespace fabric::rtl {

struct CheckOptions {
  bool sync = true;
  bool cache = true;
  uint32_t first_seed = 1;
  uint32_t seeds = 20;
  uint64_t cycles = 20000;  // per seed
  int cache_ports = 6;      // a leaf's five user ports and its surrogate
};

// Reports to `out`; true when no block differs from the model.
bool check_blocks(const CheckOptions& options, std::ostream& out);

}  // namespace fabric::rtl
