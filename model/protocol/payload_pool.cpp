#include "model/protocol/payload_pool.h"

namespace fabric {

PayloadPool::~PayloadPool() {
  for (auto& p : all_) p->free_all_extensions();
}

Payload& PayloadPool::acquire(MessageKind kind, uint32_t wire_bytes) {
  Payload* p;
  if (free_.empty()) {
    all_.push_back(std::make_unique<Payload>(this));
    p = all_.back().get();
    p->set_extension(new MessageInfo);
    p->set_extension(new EthernetFrame);
    p->set_extension(new FabricPacket);
    p->set_extension(new ControlMessage);
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
