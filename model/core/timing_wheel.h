#pragma once
// A priority queue of timed entries for a discrete-event simulation, ordered
// by (due, insertion order): a hashed timing wheel. Buckets of 2^bucket_bits
// ps cover a horizon of 2^(bucket_bits + wheel_bits) ps ahead of the current
// bucket. Pushing appends to a bucket, so a bucket holds its entries in
// insertion order; a stable counting sort on the time within the bucket
// orders it by (due, insertion order) when it becomes current, and it is
// then read in order. A bucket's entries
// live in a fixed block of one slab, found by arithmetic from a small array
// of counts (a push touches no per-bucket header), and spill into a vector
// of their own past its slots. Entries beyond the horizon wait in an overflow heap and move into
// the wheel as time approaches them. Times never go backwards: a push
// earlier than the last entry popped is served at that entry's time.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "model/core/ids.h"

namespace fabric {

// What the wheel tells, as a bucket becomes current, about the entries of
// that bucket and of the next kHintDepth - 1 buckets: nothing by default. A
// simulator passes a hint that prefetches what the entries will touch, in
// stages a bucket apart (what the entries point to, then what that points
// to, ...), so that cache misses overlap instead of queueing one behind the
// other as the entries are served. Stage 0 is the current bucket.
constexpr int kHintDepth = 3;
struct NoBucketHint {
  template <class Entry>
  static void on_bucket(int /*stage*/, const Entry*, const Entry*) {}
};

template <class Value, class BucketHint = NoBucketHint>
class TimingWheel {
 public:
  struct Entry {
    Picos due;
    Value value;
  };

  // wheel_bits >= 6: the occupancy bitmap is scanned a 64-bit word at a time.
  // A bucket holds slots_per_bucket entries in the slab before it spills.
  explicit TimingWheel(int bucket_bits = 8, int wheel_bits = 12, int slots_per_bucket = 128)
      : bucket_bits_(bucket_bits),
        wheel_size_(uint64_t{1} << std::max(wheel_bits, 6)),
        slots_(static_cast<uint16_t>(std::clamp(slots_per_bucket, 1, 65535))),
        slab_(new Entry[wheel_size_ * slots_]),
        counts_(wheel_size_, 0),
        spills_(wheel_size_),
        occupied_(wheel_size_ / 64, 0),
        bin_starts_((size_t{1} << bucket_bits) + 1, 0) {}

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  void push(Picos due, const Value& value) {
    place({std::max(due, now_), value});
    ++size_;
  }

  // The earliest entry; the wheel must not be empty.
  const Entry& top() {
    if (head_ == current_.size()) advance();
    return current_[head_];
  }

  // The due time of the earliest entry, without making its bucket current
  // (the wheel must not be empty): entries pushed later, earlier than that
  // bucket but not than the last entry popped, still pop first.
  Picos next_due() const {
    if (head_ < current_.size()) return current_[head_].due;
    Picos earliest = overflow_.empty() ? std::numeric_limits<Picos>::max() : overflow_.front().entry.due;
    const uint64_t distance = distance_to_next_bucket();
    if (distance == wheel_size_) return earliest;
    const uint64_t i = (slot_of(base_) + distance) & (wheel_size_ - 1);
    const Entry* block = &slab_[i * slots_];
    for (const Entry* e = block; e != block + counts_[i]; ++e) earliest = std::min(earliest, e->due);
    for (const Entry& e : spills_[i]) earliest = std::min(earliest, e.due);
    return earliest;
  }

  // Pops the earliest entry into `out` if it is due before `end`. It may
  // make the bucket that holds `end` current (entries pushed later must then
  // not be earlier than that bucket: true of a simulator serving the time
  // before `end`, whose later pushes are at `end` or after).
  bool pop_before(Picos end, Entry& out) {
    if (head_ == current_.size()) {
      if (size_ == 0 || next_bucket_start() >= end) return false;
      advance();
    }
    if (current_[head_].due >= end) return false;
    out = current_[head_++];
    now_ = out.due;
    --size_;
    return true;
  }

  Entry pop() {
    if (head_ == current_.size()) advance();
    const Entry e = current_[head_++];
    now_ = e.due;
    --size_;
    return e;
  }

 private:
  static bool earlier(const Entry& a, const Entry& b) { return a.due < b.due; }
  struct Overflowed {
    Entry entry;
    uint64_t seq;  // the overflow is a heap: insertion order must be spelled out
  };
  static bool later(const Overflowed& a, const Overflowed& b) {
    return a.entry.due != b.entry.due ? a.entry.due > b.entry.due : a.seq > b.seq;
  }
  uint64_t slot_of(Picos t) const { return static_cast<uint64_t>(t) >> bucket_bits_; }

  void place(const Entry& e) {
    const uint64_t slot = slot_of(e.due);
    const uint64_t current = slot_of(base_);
    if (slot == current) {
      // After every unread entry due at the same time or earlier (it is the
      // newest).
      const auto at =
          std::upper_bound(current_.begin() + static_cast<std::ptrdiff_t>(head_), current_.end(), e, earlier);
      current_.insert(at, e);
    } else if (slot - current < wheel_size_) {
      append_to_bucket(slot & (wheel_size_ - 1), e);
    } else {
      overflow_.push_back({e, overflow_seq_++});
      std::push_heap(overflow_.begin(), overflow_.end(), later);
    }
  }

  void append_to_bucket(uint64_t i, const Entry& e) {
    if (counts_[i] < slots_) {
      Entry* slot = &slab_[i * slots_ + counts_[i]++];
      *slot = e;
      // The bucket's next pushes will write the following line: ask for it
      // now, so that store does not wait for memory.
      __builtin_prefetch(slot + 3, 1);
    } else {
      spills_[i].push_back(e);
    }
    occupied_[i / 64] |= uint64_t{1} << (i % 64);
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

  // Where the next occupied bucket starts (the current one is read out and
  // the wheel is not empty).
  Picos next_bucket_start() const {
    const uint64_t distance = distance_to_next_bucket();
    uint64_t next = distance < wheel_size_ ? slot_of(base_) + distance : UINT64_MAX;
    if (!overflow_.empty()) next = std::min(next, slot_of(overflow_.front().entry.due));
    return static_cast<Picos>(next << bucket_bits_);
  }

  // Makes the next occupied bucket current (the wheel is not empty).
  void advance() {
    current_.clear();
    head_ = 0;
    while (current_.empty()) {
      const uint64_t distance = distance_to_next_bucket();
      uint64_t next = distance < wheel_size_ ? slot_of(base_) + distance : UINT64_MAX;
      if (!overflow_.empty()) next = std::min(next, slot_of(overflow_.front().entry.due));
      base_ = static_cast<Picos>(next << bucket_bits_);
      const uint64_t i = next & (wheel_size_ - 1);
      const uint64_t bit = uint64_t{1} << (i % 64);
      if (occupied_[i / 64] & bit) {
        occupied_[i / 64] &= ~bit;
        const Entry* block = &slab_[i * slots_];
        current_.assign(block, block + counts_[i]);
        counts_[i] = 0;
        if (!spills_[i].empty()) {
          current_.insert(current_.end(), spills_[i].begin(), spills_[i].end());
          spills_[i].clear();
        }
      }
      // Overflowed entries entering the horizon.
      while (!overflow_.empty() && slot_of(overflow_.front().entry.due) - next < wheel_size_) {
        std::pop_heap(overflow_.begin(), overflow_.end(), later);
        const Entry e = overflow_.back().entry;
        overflow_.pop_back();
        const uint64_t slot = slot_of(e.due);
        if (slot == next) {
          current_.push_back(e);
        } else {
          append_to_bucket(slot & (wheel_size_ - 1), e);
        }
      }
    }
    sort_current();
    BucketHint::on_bucket(0, current_.data(), current_.data() + current_.size());
    for (int stage = 1; stage < kHintDepth; ++stage) {
      const uint64_t ahead = (slot_of(base_) + static_cast<uint64_t>(stage)) & (wheel_size_ - 1);
      if (occupied_[ahead / 64] & (uint64_t{1} << (ahead % 64))) {
        const Entry* block = &slab_[ahead * slots_];
        BucketHint::on_bucket(stage, block, block + counts_[ahead]);
      }
    }
  }

  // Stable: equal times keep their insertion order.
  void sort_current() {
    const size_t n = current_.size();
    if (n <= 48) {  // below this, insertion sort beats a pass over every bin
      for (size_t i = 1; i < n; ++i) {
        const Entry e = current_[i];
        size_t j = i;
        for (; j > 0 && current_[j - 1].due > e.due; --j) current_[j] = current_[j - 1];
        current_[j] = e;
      }
      return;
    }
    if (bin_starts_.size() > 16 * n) {  // sparse: clearing the bins would cost more than sorting
      std::stable_sort(current_.begin(), current_.end(), earlier);
      return;
    }
    std::fill(bin_starts_.begin(), bin_starts_.end(), 0);
    for (const Entry& e : current_) ++bin_starts_[static_cast<size_t>(e.due - base_) + 1];
    for (size_t b = 1; b < bin_starts_.size(); ++b) bin_starts_[b] += bin_starts_[b - 1];
    sorted_.resize(n);
    for (const Entry& e : current_) sorted_[bin_starts_[static_cast<size_t>(e.due - base_)]++] = e;
    current_.swap(sorted_);
  }

  int bucket_bits_;
  uint64_t wheel_size_;
  uint16_t slots_;
  std::unique_ptr<Entry[]> slab_;  // bucket i: entries [i * slots_, + counts_[i])
  std::vector<uint16_t> counts_;
  std::vector<std::vector<Entry>> spills_;  // a bucket's entries beyond its block
  std::vector<uint64_t> occupied_;
  std::vector<Entry> current_;  // the current bucket, sorted; read from head_
  size_t head_ = 0;
  std::vector<Overflowed> overflow_;  // heap of the entries beyond the horizon
  uint64_t overflow_seq_ = 0;
  std::vector<uint32_t> bin_starts_;  // counting sort: one bin per picosecond of a bucket
  std::vector<Entry> sorted_;
  Picos base_ = 0;  // start of the current bucket
  Picos now_ = 0;   // due of the last entry popped
  size_t size_ = 0;
};

}  // namespace fabric
