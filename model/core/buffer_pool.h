#pragma once
// Occupancy of one buffer pool in units (a leaf's 256 B buffer units or
// headers; a backplane switch's bytes).
// Taking more than the capacity or giving back more than is held is a
// broken invariant, reported by the caller's module.
#include <cstdint>
#include <stdexcept>

namespace fabric {

class BufferPool {
 public:
  explicit BufferPool(uint32_t capacity = 0) : capacity_(capacity) {}

  bool can_take(uint32_t n) const { return used_ + n <= capacity_; }
  bool try_take(uint32_t n) {
    if (!can_take(n)) return false;
    used_ += n;
    if (used_ > peak_) peak_ = used_;
    return true;
  }
  void give_back(uint32_t n) {
    if (n > used_) throw std::logic_error("buffer pool: giving back more units than held");
    used_ -= n;
  }
  uint32_t used() const { return used_; }
  uint32_t free() const { return capacity_ - used_; }
  uint32_t capacity() const { return capacity_; }
  uint32_t peak() const { return peak_; }

 private:
  uint32_t capacity_;
  uint32_t used_ = 0;
  uint32_t peak_ = 0;
};

}  // namespace fabric
