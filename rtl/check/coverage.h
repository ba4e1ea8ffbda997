#pragma once
// Functional coverage of a block's qualification (rtl/check/): named bins,
// each counting how often the stimulus drove the block into one situation
// (a full CAM evicting, an LRU tie of three entries, two timeouts in one
// tick, a reset mid-traffic). A bin a size cannot reach (a tie of three in
// a CAM of two entries) is marked unreachable; a reachable bin left empty
// means the check proved nothing about that situation. Toggle coverage of
// the inputs: each field of the commands (a VOQ id, a count, `now`) is
// watched bit by bit, and a bit that never took both values is named.
#include <cstdint>
#include <string>
#include <vector>

namespace fabric::stimulus {

class Coverage {
 public:
  struct Bin {
    const char* name;
    const char* meaning;
    uint64_t count = 0;
    bool reachable = true;
  };

  // An input field of `bits` bits (its low bits: a field whose top bit the
  // contract keeps at 0, like `now` below 2^63, counts one bit fewer).
  struct Field {
    const char* name;
    int bits;
    uint64_t ones = 0;   // the bits seen at 1
    uint64_t zeros = 0;  // the bits seen at 0
  };

  explicit Coverage(std::vector<Bin> bins, std::vector<Field> fields = {})
      : bins_(std::move(bins)), fields_(std::move(fields)) {}

  void hit(size_t bin) { ++bins_[bin].count; }
  // A value of input field `field` was driven.
  void saw(size_t field, uint64_t value) {
    fields_[field].ones |= value;
    fields_[field].zeros |= ~value;
  }
  void unreachable(size_t bin) { bins_[bin].reachable = false; }
  // Counts of another run over the same bins added to these.
  void add(const Coverage& other);

  const std::vector<Bin>& bins() const { return bins_; }
  // The reachable bins no stimulus reached, by name.
  std::vector<std::string> empty_bins() const;
  // The input bits that never took a value: "voq[15]=1" (bit 15 of voq was never 1).
  std::vector<std::string> untoggled_bits() const;
  // "full 120, eviction 118, lru_tie_2 31, ..." (unreachable bins as "n/a"),
  // then "; toggled: voq 16/16 bits, ..." when fields are watched.
  std::string summary() const;

 private:
  static uint64_t mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

  std::vector<Bin> bins_;
  std::vector<Field> fields_;
};

}  // namespace fabric::stimulus
