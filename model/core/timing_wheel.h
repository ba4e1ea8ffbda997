#pragma once
// A priority queue of timed entries for a discrete-event simulation, ordered
// by (due, insertion order): a hashed timing wheel. Buckets of 2^bucket_bits
// ps cover a horizon of 2^(bucket_bits + wheel_bits) ps ahead of the current
// bucket; only the current bucket is kept as a heap, so pushing is O(1) and
// popping costs a heap of one bucket's entries, not of everything pending.
// Entries beyond the horizon wait in an overflow heap and move into the wheel
// as time approaches them. Times never go backwards: a push is never earlier
// than the last entry popped.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/core/ids.h"

namespace fabric {

template <class Value>
class TimingWheel {
 public:
  struct Entry {
    Picos due;
    uint64_t seq;
    Value value;
  };

  // wheel_bits >= 6: the occupancy bitmap is scanned a 64-bit word at a time.
  explicit TimingWheel(int bucket_bits = 8, int wheel_bits = 14)
      : bucket_bits_(bucket_bits), wheel_size_(uint64_t{1} << std::max(wheel_bits, 6)), buckets_(wheel_size_),
        occupied_(wheel_size_ / 64, 0) {}

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  void push(Picos due, const Value& value) {
    if (due < base_) due = base_;  // the past is now
    place({due, seq_++, value});
    ++size_;
  }

  // The earliest entry; the wheel must not be empty.
  const Entry& top() {
    if (current_.empty()) advance();
    return current_.front();
  }

  Entry pop() {
    if (current_.empty()) advance();
    std::pop_heap(current_.begin(), current_.end(), later);
    const Entry e = current_.back();
    current_.pop_back();
    --size_;
    return e;
  }

 private:
  static bool later(const Entry& a, const Entry& b) { return a.due != b.due ? a.due > b.due : a.seq > b.seq; }
  uint64_t slot_of(Picos t) const { return static_cast<uint64_t>(t) >> bucket_bits_; }

  void place(const Entry& e) {
    const uint64_t slot = slot_of(e.due);
    const uint64_t current = slot_of(base_);
    if (slot == current) {
      current_.push_back(e);
      std::push_heap(current_.begin(), current_.end(), later);
    } else if (slot - current < wheel_size_) {
      const uint64_t i = slot & (wheel_size_ - 1);
      buckets_[i].push_back(e);
      occupied_[i / 64] |= uint64_t{1} << (i % 64);
    } else {
      overflow_.push_back(e);
      std::push_heap(overflow_.begin(), overflow_.end(), later);
    }
  }

  // Buckets ahead of the current one to the next occupied bucket, or
  // wheel_size_ when the wheel holds nothing beyond the current bucket.
  uint64_t distance_to_next_bucket() const {
    uint64_t i = (slot_of(base_) + 1) & (wheel_size_ - 1);
    for (uint64_t scanned = 0; scanned < wheel_size_;) {
      const uint64_t word = occupied_[i / 64] >> (i % 64);
      if (word != 0) {
        const uint64_t found = scanned + static_cast<uint64_t>(__builtin_ctzll(word));
        return found < wheel_size_ - 1 ? found + 1 : wheel_size_;
      }
      const uint64_t step = 64 - i % 64;
      scanned += step;
      i = (i + step) & (wheel_size_ - 1);
    }
    return wheel_size_;
  }

  // Makes the next occupied bucket current (the wheel is not empty).
  void advance() {
    while (current_.empty()) {
      const uint64_t distance = distance_to_next_bucket();
      uint64_t next = distance < wheel_size_ ? slot_of(base_) + distance : UINT64_MAX;
      if (!overflow_.empty()) next = std::min(next, slot_of(overflow_.front().due));
      base_ = static_cast<Picos>(next << bucket_bits_);
      const uint64_t i = next & (wheel_size_ - 1);
      const uint64_t bit = uint64_t{1} << (i % 64);
      if (occupied_[i / 64] & bit) {
        occupied_[i / 64] &= ~bit;
        current_.swap(buckets_[i]);
        std::make_heap(current_.begin(), current_.end(), later);
      }
      while (!overflow_.empty() && slot_of(overflow_.front().due) - next < wheel_size_) {
        std::pop_heap(overflow_.begin(), overflow_.end(), later);
        const Entry e = overflow_.back();
        overflow_.pop_back();
        place(e);
      }
    }
  }

  int bucket_bits_;
  uint64_t wheel_size_;
  std::vector<std::vector<Entry>> buckets_;
  std::vector<uint64_t> occupied_;
  std::vector<Entry> current_;   // heap of the entries in the current bucket
  std::vector<Entry> overflow_;  // heap of the entries beyond the horizon
  Picos base_ = 0;               // start of the current bucket
  uint64_t seq_ = 0;
  size_t size_ = 0;
};

}  // namespace fabric
