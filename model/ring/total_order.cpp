#include "model/ring/total_order.h"

namespace fabric::ring {

TotalOrder::TotalOrder(std::vector<int> senders) {
  for (int s : senders) seen_[s] = 0;
}

void TotalOrder::seen(int sender, uint64_t timestamp) {
  auto it = seen_.find(sender);
  if (it != seen_.end() && timestamp > it->second) it->second = timestamp;
}

void TotalOrder::arrived(uint64_t ots, int source, uint64_t id, uint64_t buffer_vts, int64_t created) {
  buffered_[{ots, source}] = {id, buffer_vts, created};
  seen(source, ots);
}

std::optional<TotalOrder::Ready> TotalOrder::next(const std::function<bool(int)>& active) {
  if (buffered_.empty()) return std::nullopt;
  const auto [key, held] = *buffered_.begin();
  for (const auto& [sender, highest] : seen_) {
    if (sender == key.second || highest >= key.first) continue;
    if (!active || active(sender)) return std::nullopt;  // it may still send a packet ordered before this one
  }
  buffered_.erase(buffered_.begin());
  return Ready{key.second, held.id, key.first, held.buffer_vts, held.created};
}

}  // namespace fabric::ring
