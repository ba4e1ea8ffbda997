#pragma once
// A set of cache-line numbers that is emptied in O(1) (each slot remembers
// the round it was filled in): the lines one partition's turn, or one
// window, has touched so far. Open addressing, linear probing; a set that
// would fill more than half its slots grows.
#include <cstdint>
#include <vector>

namespace fabric::line_census {

class LineSet {
 public:
  explicit LineSet(int log2_slots = 16) : slots_(size_t{1} << log2_slots) {}

  // Whether `line` was not yet in the set (it is now).
  bool insert(uint64_t line) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash(line) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.round != round_) {
        s = {line, round_};
        ++size_;
        return true;
      }
      if (s.line == line) return false;
    }
  }
  void clear() {
    ++round_;
    size_ = 0;
  }
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t line = 0;
    uint64_t round = 0;  // 0: never filled; the set's rounds start at 1
  };
  static size_t hash(uint64_t line) { return static_cast<size_t>((line * 0x9E3779B97F4A7C15ull) >> 20); }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.size() * 2, Slot{});
    const uint64_t round = round_;
    round_ = 1;
    size_ = 0;
    for (const Slot& s : old)
      if (s.round == round) insert(s.line);
  }

  std::vector<Slot> slots_;
  uint64_t round_ = 1;
  size_t size_ = 0;
};

}  // namespace fabric::line_census
