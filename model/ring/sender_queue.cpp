#include "model/ring/sender_queue.h"

#include <stdexcept>

namespace fabric::ring {

QueuedPacket& SenderQueue::at_vts(uint64_t vts) {
  for (QueuedPacket& p : queue_)
    if (p.vts == vts) return p;
  throw std::logic_error("sender queue: no packet has this VTS");
}

bool SenderQueue::has_vts(uint64_t vts) const {
  for (const QueuedPacket& p : queue_)
    if (p.vts == vts) return true;
  return false;
}

SenderQueue::Send SenderQueue::complete(uint64_t vts) {
  size_t k = 0;
  while (k < queue_.size() && queue_[k].vts != vts) ++k;
  if (k == queue_.size()) throw std::logic_error("sender queue: a completed reservation of no queued packet");
  Send s{queue_.front(), vts};
  // Packets 1 .. k take the VTS of the one before them (and its partial
  // reservations); the head goes in packet k's buffers.
  for (size_t i = k; i >= 1; --i) queue_[i].vts = queue_[i - 1].vts;
  queue_.pop_front();
  return s;
}

}  // namespace fabric::ring
