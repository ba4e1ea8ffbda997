#pragma once
// Functional coverage of a block's qualification (rtl/check/): named bins,
// each counting how often the stimulus drove the block into one situation
// (a full CAM evicting, an LRU tie of three entries, two timeouts in one
// tick, a reset mid-traffic). A bin a size cannot reach (a tie of three in
// a CAM of two entries) is marked unreachable; a reachable bin left empty
// means the check proved nothing about that situation.
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

  explicit Coverage(std::vector<Bin> bins) : bins_(std::move(bins)) {}

  void hit(size_t bin) { ++bins_[bin].count; }
  void unreachable(size_t bin) { bins_[bin].reachable = false; }
  // Counts of another run over the same bins added to these.
  void add(const Coverage& other);

  const std::vector<Bin>& bins() const { return bins_; }
  // The reachable bins no stimulus reached, by name.
  std::vector<std::string> empty_bins() const;
  // "full 120, eviction 118, lru_tie_2 31, ..." (unreachable bins as "n/a").
  std::string summary() const;

 private:
  std::vector<Bin> bins_;
};

}  // namespace fabric::stimulus
