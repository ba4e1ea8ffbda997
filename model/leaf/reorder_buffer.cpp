#include "model/leaf/reorder_buffer.h"

#include <algorithm>

namespace fabric {

bool ReorderBuffer::on_packet(uint32_t copy_seq, uint16_t index, const CopyMeta& meta, Picos entered_at) {
  // Validate before changing anything: a rejected packet leaves no trace.
  if (copy_seq < base_seq_) throw std::logic_error("reorder buffer: packet of a copy already forwarded");
  if (index >= meta.segments) throw std::logic_error("reorder buffer: segment index beyond the copy");
  if (index >= kMaxSegments) throw std::logic_error("reorder buffer: more segments than a jumbo frame has");
  const size_t slot = copy_seq - base_seq_;
  if (slot < partial_.size() && partial_[slot].seen.test(index))
    throw std::logic_error("reorder buffer: duplicate packet");
  while (slot >= partial_.size()) partial_.push_back(Partial{});
  Partial& p = partial_[slot];
  if (p.received == 0) p.meta = meta;
  p.seen.set(index);
  ++p.received;
  p.ready_at = std::max(p.ready_at, entered_at);

  bool became_ready = false;
  while (!partial_.empty() && partial_.front().received != 0 &&
         partial_.front().received == partial_.front().meta.segments) {
    ready_.push_back({partial_.front().meta, partial_.front().ready_at});
    partial_.pop_front();
    ++base_seq_;
    became_ready = true;
  }
  return became_ready;
}

ReorderBuffer::ReadyCopy ReorderBuffer::pop() {
  ReadyCopy c = ready_.front();
  ready_.pop_front();
  return c;
}

}  // namespace fabric
