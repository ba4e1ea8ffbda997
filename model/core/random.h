#pragma once
// Portable random helpers. std::uniform_int_distribution differs between
// standard libraries; these do not, so a seed gives the same run everywhere.
#include <cstdint>
#include <random>

namespace fabric {

// Unbiased integer in [0, n) by rejection; n > 0.
inline uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  const uint64_t threshold = (0 - n) % n;  // 2^64 mod n: values below it would bias
  uint64_t x;
  do x = rng();
  while (x < threshold);
  return x % n;
}

// SplitMix64 finaliser: derives independent seeds (per flow, per purpose) from one run seed.
inline uint64_t mix_seed(uint64_t seed, uint64_t salt) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (salt + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace fabric
