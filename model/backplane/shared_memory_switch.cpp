#include "model/backplane/shared_memory_switch.h"

#include <stdexcept>

namespace fabric {

SharedMemorySwitch::SharedMemorySwitch(int ports, uint32_t memory_bytes) : memory_(memory_bytes) {
  if (ports < 1) throw std::invalid_argument("shared-memory switch: at least one port");
  queues_.resize(static_cast<size_t>(ports));
}

bool SharedMemorySwitch::admit(int out, const SwitchedFrame& frame) {
  if (!memory_.try_take(frame.bytes)) {
    ++discards_;
    return false;
  }
  queues_[static_cast<size_t>(out)].push_back(frame);
  ++frames_;
  return true;
}

SwitchedFrame SharedMemorySwitch::pop(int out) {
  auto& q = queues_[static_cast<size_t>(out)];
  if (q.empty()) throw std::logic_error("shared-memory switch: an output with no frame sends one");
  const SwitchedFrame f = q.front();
  q.pop_front();
  --frames_;
  memory_.give_back(f.bytes);
  return f;
}

}  // namespace fabric
