#include "model/protocol/payload_pool.h"

#include <algorithm>
#include <cstdint>

#include "model/core/event_queue.h"

namespace fabric {

PayloadPool::~PayloadPool() = default;

static_assert(alignof(PooledPayload) <= 8, "a payload must fit 8 bytes into its slot");
static_assert(kMessageHotOffset == EventQueue::kItemHotOffset, "the scheduler prefetches messages where they are hot");

size_t PayloadPool::allocated() const {
  size_t n = 0;
  for (const Shelf& s : shelves_) n += s.all.size();
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
    shelf.all.push_back(std::make_unique<Slot>(this));
    p = &shelf.all.back()->payload;
    // The hot fields must start a cache line (see kMessageHotOffset).
    const auto hot = reinterpret_cast<uintptr_t>(&info_of(*p)) - 16;
    if (hot % 64 != 0 || hot != reinterpret_cast<uintptr_t>(p) + kMessageHotOffset)
      SC_REPORT_FATAL("PayloadPool", "the message layout moved: update kMessageHotOffset and the slot lead");
  } else {
    p = free_list.back();
    free_list.pop_back();
    // The next acquire writes the next free payload's hot lines: ask for them now.
    if (!free_list.empty()) {
      const char* next = reinterpret_cast<const char*>(free_list.back()) + kMessageHotOffset;
      __builtin_prefetch(next, 1);
      __builtin_prefetch(next + 64, 1);
    }
  }
  p->acquire();
  MessageInfo& info = info_of(*p);
  info.kind = kind;
  info.wire_bytes = wire_bytes;
  info.ready_at = 0;
  info.credits = 0;
  info.corrupt = false;
  info.replay = false;
  return *p;
}

Payload& PayloadPool::clone(const Payload& original) {
  const PooledPayload& from = static_cast<const PooledPayload&>(original);
  Payload& copy = acquire(from.info.kind, from.info.wire_bytes);
  PooledPayload& to = static_cast<PooledPayload&>(copy);
  to.info.copy_from(from.info);
  to.packet.copy_from(from.packet);
  to.control.copy_from(from.control);
  to.frame.copy_from(from.frame);
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
    if (!shelf.all.empty()) used = w + 1;
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
    if (s.all.empty()) continue;
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
