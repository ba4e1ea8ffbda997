#include "model/protocol/payload_pool.h"

#include <algorithm>
#include <cstdint>

namespace fabric {

PayloadPool::~PayloadPool() = default;

void return_to_pool(PayloadPool* pool, Payload* payload) { pool->free(payload); }

size_t PayloadPool::allocated() const {
  size_t n = 0;
  for (const Shelf& s : shelves_) n += s.allocated;
  return n;
}

size_t PayloadPool::in_use() const {
  size_t n = allocated();
  for (const Shelf& s : shelves_) n -= s.free.size();
  return n;
}

Payload& PayloadPool::acquire(MessageKind kind, uint32_t wire_bytes) {
  Payload* p;
  Shelf& shelf = shelves_[Worker::index()];
  std::vector<Payload*>& free_list = shelf.free;
  if (free_list.empty()) {
    // A new block; its messages join the free list, the last one first out.
    shelf.blocks.push_back(std::make_unique<Payload[]>(kBlock));
    Payload* block = shelf.blocks.back().get();
    shelf.allocated += kBlock;
    for (size_t i = kBlock; i-- > 0;) {
      block[i].pool_ = this;
      free_list.push_back(&block[i]);
    }
  }
  p = free_list.back();
  free_list.pop_back();
  // The next acquire writes the next free message's lines: ask for them now.
  if (!free_list.empty()) {
    const char* next = reinterpret_cast<const char*>(free_list.back());
    __builtin_prefetch(next, 1);
    __builtin_prefetch(next + 64, 1);
  }
  p->acquire();
  p->address_ = 0;
  MessageInfo& info = info_of(*p);
  info.kind = kind;
  info.wire_bytes = wire_bytes;
  info.ready_at = 0;
  info.credits = 0;
  info.corrupt = false;
  info.replay = false;
  info.carries_link_ack = false;
  return *p;
}

Payload& PayloadPool::clone(const Payload& original) {
  Payload& copy = acquire(original.info.kind, original.info.wire_bytes);
  copy.info = original.info;
  copy.body = original.body;
  copy.address_ = original.address_;
  return copy;
}

void PayloadPool::free(Payload* payload) { shelves_[Worker::index()].free.push_back(payload); }

void PayloadPool::release_shelf(std::vector<Payload*>& deferred) {
  constexpr size_t kAhead = 8;  // misses in flight at once
  const size_t n = deferred.size();
  for (size_t i = 0; i < std::min(n, kAhead); ++i) prefetch_message(deferred[i]);
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) prefetch_message(deferred[i + kAhead]);
    deferred[i]->release();
  }
  deferred.clear();
}

void PayloadPool::release_deferred() {
  int used = 1;
  for (int w = 0; w < Worker::kMax; ++w) {
    Shelf& shelf = shelves_[w];
    if (shelf.allocated > 0) used = w + 1;
    if (shelf.deferred.empty()) continue;
    Worker::set_index(w);  // the frees go to worker w's shelf
    release_shelf(shelf.deferred);
  }
  Worker::set_index(0);
  if (used > 1) even_out();
}

void PayloadPool::even_out() {
  // The fullest and the emptiest shelf split their free payloads when the
  // one holds more than twice the other and a few thousand more.
  Shelf* most = &shelves_[0];
  Shelf* least = &shelves_[0];
  for (Shelf& s : shelves_) {
    if (s.allocated == 0) continue;
    if (s.free.size() > most->free.size()) most = &s;
    if (s.free.size() < least->free.size()) least = &s;
  }
  const size_t more = most->free.size(), fewer = least->free.size();
  if (more < 2 * fewer + 4096) return;
  const size_t move = (more - fewer) / 2;
  least->free.insert(least->free.end(), most->free.end() - static_cast<std::ptrdiff_t>(move), most->free.end());
  most->free.resize(more - move);
}

}  // namespace fabric
