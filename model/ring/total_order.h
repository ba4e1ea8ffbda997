#pragma once
// Delivery in total order at a member (platforms.md, E14), plain C++:
// packets are delivered in order of (ordering timestamp, source station).
// The lowest buffered packet goes to the host once every other active
// sender of the group has been seen at its timestamp or later: a sender's
// frames reach a member in the order it sent them, each stamped from its
// Lamport clock as it goes on the wire, so a packet it sends later has a
// higher ordering timestamp than anything of it seen so far.
//
// Which senders are active is the caller's (a predicate): at a station,
// those holding an unfilled reservation there. A sender that holds none
// must send a ticket past this station before it can multicast again, and
// that ticket carries this station's clock back to it (RingFrame::carried),
// so its next packet is ordered after everything buffered here.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace fabric::ring {

class TotalOrder {
 public:
  explicit TotalOrder(std::vector<int> senders);
  // A timestamp seen from a sender (any frame it sent that passes here).
  void seen(int sender, uint64_t timestamp);
  // A packet arrived: its ordering timestamp, its source, the caller's id,
  // the VTS of the buffer it is in (0: none) and when its host made it.
  void arrived(uint64_t ots, int source, uint64_t id, uint64_t buffer_vts = 0, int64_t created = 0);

  struct Ready {
    int source;
    uint64_t id;
    uint64_t ots;
    uint64_t buffer_vts;
    int64_t created;
  };
  // The next packet that may go to the host, removed; nullopt when none.
  // `active(sender)`: whether that sender may still send a packet here
  // without first passing a ticket (all senders when not given).
  std::optional<Ready> next(const std::function<bool(int)>& active = {});
  size_t buffered() const { return buffered_.size() - head_; }

 private:
  std::map<int, uint64_t> seen_;  // by sender: the highest timestamp seen
  struct Held {
    uint64_t ots;
    int source;
    uint64_t id;
    uint64_t buffer_vts;
    int64_t created;
    bool operator<(const Held& o) const { return ots != o.ots ? ots < o.ots : source < o.source; }
  };
  // Ordered by (ots, source); packets come nearly in order, so an arrival
  // goes in near the end (a vector, no node per packet).
  std::vector<Held> buffered_;
  size_t head_ = 0;  // delivered ones before it, dropped in batches
};

}  // namespace fabric::ring
