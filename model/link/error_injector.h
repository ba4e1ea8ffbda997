#pragma once
// Soft errors on one link (mechanism 10), as plain C++: whether the packet
// with a given link sequence number arrives with a bad CRC. Either from a
// bit error rate (a packet of b bits is hit with 1 - (1 - BER)^b), a fixed
// packet error probability, or a scripted list of sequence numbers; seeded,
// so that a run is repeatable.
#include <cstdint>
#include <random>
#include <set>

namespace fabric {

class ErrorInjector {
 public:
  struct Params {
    double bit_error_rate = 0;            // 0 .. 1e-3
    double packet_error_probability = 0;  // used when bit_error_rate is 0
    std::set<uint64_t> scripted;          // link sequence numbers to corrupt (first transmission)
  };

  ErrorInjector(const Params& params, uint64_t seed) : params_(params), rng_(seed) {}

  // The probability that a packet of `wire_bytes` is corrupted.
  double packet_probability(uint32_t wire_bytes) const;
  // Draws for the transmission of packet `seq`; with `not_scripted` (a
  // replay: a scripted error hits the first transmission; or a message
  // outside the sequence) only the random errors apply.
  bool corrupt(uint64_t seq, uint32_t wire_bytes, bool not_scripted);
  uint64_t injected() const { return injected_; }

 private:
  Params params_;
  std::mt19937_64 rng_;
  uint64_t injected_ = 0;
};

}  // namespace fabric
