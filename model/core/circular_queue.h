#pragma once
// A FIFO of small values in a circular buffer (unrelated to the ring
// platform): the first Inline slots live inside the
// object (a port's queue is usually short, so its head sits on the port's
// own cache lines), and it grows on the heap, doubling, when it must. Unlike
// std::deque it has no separate index block to chase.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace fabric {

template <class T, size_t Inline>
class CircularQueue {
  static_assert((Inline & (Inline - 1)) == 0, "inline capacity must be a power of two");

 public:
  CircularQueue() = default;
  CircularQueue(const CircularQueue&) = delete;
  CircularQueue& operator=(const CircularQueue&) = delete;
  // Moves keep the order; a moved-from queue is empty.
  CircularQueue(CircularQueue&& other) noexcept { take(other); }
  CircularQueue& operator=(CircularQueue&& other) noexcept {
    if (this != &other) take(other);
    return *this;
  }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return data()[head_]; }
  const T& front() const { return data()[head_]; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }
  T& operator[](size_t i) { return data()[(head_ + i) & (capacity_ - 1)]; }
  const T& operator[](size_t i) const { return data()[(head_ + i) & (capacity_ - 1)]; }

  // By value: `value` may be an element of this queue (push_back(front())).
  void push_back(T value) {
    if (size_ == capacity_) grow();
    data()[(head_ + size_) & (capacity_ - 1)] = std::move(value);
    ++size_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (capacity_ - 1);
    --size_;
  }

 private:
  T* data() { return heap_ ? heap_.get() : inline_; }
  const T* data() const { return heap_ ? heap_.get() : inline_; }
  void take(CircularQueue& other) {
    heap_.reset();
    head_ = 0;
    size_ = 0;
    capacity_ = Inline;
    if (other.heap_) {
      heap_ = std::move(other.heap_);
      head_ = other.head_;
      size_ = other.size_;
      capacity_ = other.capacity_;
    } else {
      for (size_t i = 0; i < other.size_; ++i) inline_[i] = std::move(other[i]);
      size_ = other.size_;
    }
    other.head_ = other.size_ = 0;
    other.capacity_ = Inline;
  }
  void grow() {
    std::unique_ptr<T[]> bigger(new T[capacity_ * 2]);
    for (size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
    heap_ = std::move(bigger);
    capacity_ *= 2;
    head_ = 0;
  }

  uint32_t head_ = 0;
  uint32_t size_ = 0;
  size_t capacity_ = Inline;
  T inline_[Inline] = {};
  std::unique_ptr<T[]> heap_;
};

}  // namespace fabric
