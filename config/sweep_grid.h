#pragma once
// A sweep's points as a grid, one axis per dimension (SweepSpec): a point's
// number from its coordinates and back, the last dimension fastest, and the
// points whose validation stands for the sweep's. Resolving every point of
// a large sweep takes hours (a million points at ~5 ms each); a value that
// is wrong is wrong at the first point that has it, and a rule that reads
// two swept keys shows at the pair of their values, so every value and
// every pair of values are resolved (the other dimensions at their first
// value), and combinations of more dimensions only where a check depends on
// them (SweepCheckStates). No SystemC.
#include <cstdint>
#include <vector>

#include "config/sweep_spec.h"

namespace fabric::config {

class SweepGrid {
 public:
  // `sizes`: each dimension's number of values (each at least 1), whose
  // product fits 64 bits (SweepSpec::size()).
  explicit SweepGrid(std::vector<size_t> sizes);

  uint64_t size() const { return size_; }
  size_t dimensions() const { return sizes_.size(); }
  // A point's number from 0, and its coordinates.
  uint64_t index(const SweepCoordinates& at) const;
  SweepCoordinates at(uint64_t index) const;
  // `at` with every dimension outside `kept` at its first value.
  SweepCoordinates projection(const SweepCoordinates& at, const std::vector<size_t>& kept) const;

  // Every value of each dimension and every pair of values of two
  // dimensions, the others at their first value: 1 + sum(n - 1) + the
  // sum over pairs of (n_a - 1)(n_b - 1) points, in order; every point when
  // that is not fewer. Point numbers from 0.
  std::vector<uint64_t> values_and_pairs() const;
  // Every combination of the values of `kept` (dimensions), the others at
  // their first value, in order.
  std::vector<uint64_t> combinations(const std::vector<size_t>& kept) const;

 private:
  std::vector<size_t> sizes_;
  std::vector<uint64_t> strides_;  // the last dimension's is 1
  uint64_t size_ = 1;
};

}  // namespace fabric::config
