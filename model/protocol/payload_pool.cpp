#include "model/protocol/payload_pool.h"

#include <algorithm>
#include <cstdint>

#include "model/core/event_queue.h"

namespace fabric {

PayloadPool::~PayloadPool() = default;

static_assert(alignof(PooledPayload) <= 8, "a payload must fit 8 bytes into its slot");
static_assert(kMessageHotOffset == EventQueue::kItemHotOffset, "the scheduler prefetches messages where they are hot");

Payload& PayloadPool::acquire(MessageKind kind, uint32_t wire_bytes) {
  Payload* p;
  if (free_.empty()) {
    all_.push_back(std::make_unique<Slot>(this));
    p = &all_.back()->payload;
    // The hot fields must start a cache line (see kMessageHotOffset).
    const auto hot = reinterpret_cast<uintptr_t>(&info_of(*p)) - 16;
    if (hot % 64 != 0 || hot != reinterpret_cast<uintptr_t>(p) + kMessageHotOffset)
      SC_REPORT_FATAL("PayloadPool", "the message layout moved: update kMessageHotOffset and the slot lead");
  } else {
    p = free_.back();
    free_.pop_back();
    // The next acquire writes the next free payload's hot lines: ask for them now.
    if (!free_.empty()) {
      const char* next = reinterpret_cast<const char*>(free_.back()) + kMessageHotOffset;
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

void PayloadPool::free(Payload* payload) { free_.push_back(payload); }

void PayloadPool::release_deferred() {
  constexpr size_t kAhead = 8;  // misses in flight at once
  const size_t n = deferred_.size();
  for (size_t i = 0; i < std::min(n, kAhead); ++i) prefetch_message(deferred_[i]);
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) prefetch_message(deferred_[i + kAhead]);
    deferred_[i]->release();
  }
  deferred_.clear();
}

}  // namespace fabric
