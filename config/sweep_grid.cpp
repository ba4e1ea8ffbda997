#include "config/sweep_grid.h"

#include <algorithm>
#include <stdexcept>

namespace fabric::config {

SweepGrid::SweepGrid(std::vector<size_t> sizes) : sizes_(std::move(sizes)), strides_(sizes_.size(), 1) {
  for (size_t d = sizes_.size(); d-- > 0;) {
    if (sizes_[d] == 0) throw std::logic_error("SweepGrid: a dimension without values");
    strides_[d] = size_;
    if (__builtin_mul_overflow(size_, static_cast<uint64_t>(sizes_[d]), &size_))
      throw std::logic_error("SweepGrid: more points than 64 bits count");
  }
}

uint64_t SweepGrid::index(const SweepCoordinates& at) const {
  uint64_t i = 0;
  for (size_t d = 0; d < sizes_.size(); ++d) i += at[d] * strides_[d];
  return i;
}

SweepCoordinates SweepGrid::at(uint64_t index) const {
  SweepCoordinates c(sizes_.size());
  for (size_t d = 0; d < sizes_.size(); ++d) {
    c[d] = static_cast<size_t>(index / strides_[d]);
    index %= strides_[d];
  }
  return c;
}

SweepCoordinates SweepGrid::projection(const SweepCoordinates& at, const std::vector<size_t>& kept) const {
  SweepCoordinates c(sizes_.size(), 0);
  for (const size_t d : kept) c[d] = at[d];
  return c;
}

std::vector<uint64_t> SweepGrid::values_and_pairs() const {
  // Counted first (each term is at most the grid's size, and so is their sum
  // unless it is every point).
  uint64_t count = 1;
  for (size_t a = 0; a < sizes_.size() && count < size_; ++a) {
    count += sizes_[a] - 1;
    for (size_t b = a + 1; b < sizes_.size() && count < size_; ++b) count += (sizes_[a] - 1) * (sizes_[b] - 1);
  }
  std::vector<uint64_t> points;
  if (count >= size_) {
    for (uint64_t i = 0; i < size_; ++i) points.push_back(i);
    return points;
  }
  points.push_back(0);
  for (size_t a = 0; a < sizes_.size(); ++a) {
    for (size_t i = 1; i < sizes_[a]; ++i) {
      points.push_back(i * strides_[a]);
      for (size_t b = a + 1; b < sizes_.size(); ++b)
        for (size_t j = 1; j < sizes_[b]; ++j) points.push_back(i * strides_[a] + j * strides_[b]);
    }
  }
  std::sort(points.begin(), points.end());
  return points;
}

std::vector<uint64_t> SweepGrid::combinations(const std::vector<size_t>& kept) const {
  std::vector<uint64_t> points{0};
  for (const size_t d : kept) {
    const size_t before = points.size();
    for (size_t i = 1; i < sizes_[d]; ++i)
      for (size_t p = 0; p < before; ++p) points.push_back(points[p] + i * strides_[d]);
  }
  std::sort(points.begin(), points.end());
  return points;
}

}  // namespace fabric::config
