#pragma once
// Delivery in total order at a member (platforms.md, E14), plain C++:
// packets are delivered in order of (ordering timestamp, source station);
// the lowest buffered packet goes to the host once every other active
// sender of the group has been seen with a higher timestamp (no earlier
// packet can still come from it).
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace fabric::ring {

class TotalOrder {
 public:
  explicit TotalOrder(std::vector<int> senders);
  // A timestamp seen from a sender (a ticket, a voucher, a packet).
  void seen(int sender, uint64_t timestamp);
  // A packet arrived: its ordering timestamp, its source, the caller's id.
  void arrived(uint64_t ots, int source, uint64_t id);
  // The next packet that may go to the host, removed; nullopt when none.
  std::optional<uint64_t> next();
  size_t buffered() const { return buffered_.size(); }

 private:
  std::map<int, uint64_t> seen_;  // by sender: the highest timestamp seen
  std::map<std::pair<uint64_t, int>, uint64_t> buffered_;
};

}  // namespace fabric::ring
