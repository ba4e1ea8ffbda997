#include "model/ring/total_order.h"

#include <algorithm>

namespace fabric::ring {

TotalOrder::TotalOrder(std::vector<int> senders) {
  for (int s : senders) seen_[s] = 0;
}

void TotalOrder::seen(int sender, uint64_t timestamp) {
  auto it = seen_.find(sender);
  if (it != seen_.end() && timestamp > it->second) it->second = timestamp;
}

void TotalOrder::arrived(uint64_t ots, int source, uint64_t id, uint64_t buffer_vts, int64_t created) {
  const Held h{ots, source, id, buffer_vts, created};
  buffered_.insert(std::upper_bound(buffered_.begin() + static_cast<long>(head_), buffered_.end(), h), h);
  seen(source, ots);
}

std::optional<TotalOrder::Ready> TotalOrder::next(const std::function<bool(int)>& active) {
  if (head_ == buffered_.size()) return std::nullopt;
  const Held held = buffered_[head_];
  for (const auto& [sender, highest] : seen_) {
    if (sender == held.source || highest >= held.ots) continue;
    if (!active || active(sender)) return std::nullopt;  // it may still send a packet ordered before this one
  }
  if (++head_ == buffered_.size() || head_ >= 64) {  // drop the delivered ones, now and then
    buffered_.erase(buffered_.begin(), buffered_.begin() + static_cast<long>(head_));
    head_ = 0;
  }
  return Ready{held.source, held.id, held.ots, held.buffer_vts, held.created};
}

}  // namespace fabric::ring
