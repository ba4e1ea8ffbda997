#include "model/ring/total_order.h"

namespace fabric::ring {

TotalOrder::TotalOrder(std::vector<int> senders) {
  for (int s : senders) seen_[s] = 0;
}

void TotalOrder::seen(int sender, uint64_t timestamp) {
  auto it = seen_.find(sender);
  if (it != seen_.end() && timestamp > it->second) it->second = timestamp;
}

void TotalOrder::arrived(uint64_t ots, int source, uint64_t id) {
  buffered_[{ots, source}] = id;
  seen(source, ots);
}

std::optional<uint64_t> TotalOrder::next() {
  if (buffered_.empty()) return std::nullopt;
  const auto [key, id] = *buffered_.begin();
  for (const auto& [sender, highest] : seen_)
    if (sender != key.second && highest <= key.first) return std::nullopt;
  buffered_.erase(buffered_.begin());
  return id;
}

}  // namespace fabric::ring
