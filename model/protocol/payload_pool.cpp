#include "model/protocol/payload_pool.h"

namespace fabric {

PayloadPool::~PayloadPool() = default;

Payload& PayloadPool::acquire(MessageKind kind, uint32_t wire_bytes) {
  Payload* p;
  if (free_.empty()) {
    all_.push_back(std::make_unique<PooledPayload>(this));
    p = all_.back().get();
  } else {
    p = free_.back();
    free_.pop_back();
  }
  p->acquire();
  MessageInfo& info = info_of(*p);
  info.kind = kind;
  info.wire_bytes = wire_bytes;
  info.ready_at = 0;
  info.credits = 0;
  return *p;
}

void PayloadPool::free(Payload* payload) { free_.push_back(payload); }

}  // namespace fabric
