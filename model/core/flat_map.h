#pragma once
// A map from 64-bit keys to small values in one flat array (open
// addressing, linear probing): a look-up reads one slot, usually one cache
// line, where std::unordered_map follows a bucket to a node allocated on its
// own. Entries are never erased (the users keep one per key, and the keys
// are bounded by the fabric: a leaf's VOQs, say); the array doubles when it
// is half full, so it allocates only when a new key comes, never per look-up.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fabric {

template <class Value>
class FlatMap {
 public:
  explicit FlatMap(size_t initial_capacity = 16) { resize(round_up(initial_capacity)); }

  // The value of `key`, default-constructed if new.
  Value& operator[](uint64_t key) {
    Slot* s = probe(key);
    if (s->used) return s->value;
    if (2 * (size_ + 1) > slots_.size()) {
      grow();
      s = probe(key);
    }
    s->used = true;
    s->key = key;
    ++size_;
    return s->value;
  }
  // The value of `key`, null if absent.
  Value* find(uint64_t key) {
    Slot* s = probe(key);
    return s->used ? &s->value : nullptr;
  }
  const Value* find(uint64_t key) const { return const_cast<FlatMap*>(this)->find(key); }
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t key = 0;
    bool used = false;
    Value value{};
  };
  static size_t round_up(size_t n) {
    size_t c = 2;
    while (c < n) c *= 2;
    return c;
  }
  // Fibonacci hashing: the top bits of key * 2^64/phi, which spreads keys
  // that differ only in a few fields (a VOQ's port numbers) over the table.
  size_t home(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }
  void resize(size_t capacity) {  // a power of two, at least 2
    slots_.assign(capacity, Slot{});
    shift_ = 64;
    for (size_t c = capacity; c > 1; c /= 2) --shift_;
  }
  // The slot holding `key`, or the free one where it would go.
  Slot* probe(uint64_t key) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = home(key);; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.used || s.key == key) return &s;
    }
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    resize(old.size() * 2);
    for (Slot& s : old) {
      if (!s.used) continue;
      Slot* t = probe(s.key);
      *t = std::move(s);
    }
  }

  std::vector<Slot> slots_;
  int shift_ = 63;  // 64 - log2(capacity)
  size_t size_ = 0;
};

}  // namespace fabric
