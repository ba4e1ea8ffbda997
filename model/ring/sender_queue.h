#pragma once
// A station's sender packet queue (SPQ) of QuickRing multicast (platforms.md,
// E14), plain C++: packets in order of their voucher timestamps, each
// reserving buffers under its own (VTS, station). When a later packet's
// reservation completes before the head's, circular shifting sends the head
// in that packet's buffers and rotates the VTS values of the head through
// that packet by one, so the new head keeps the highest priority and every
// partial reservation stays with a packet.
#include <cstdint>
#include <deque>
#include <optional>

namespace fabric::ring {

struct QueuedPacket {
  uint64_t id = 0;
  uint64_t vts = 0;     // its reservations' key (with the station)
  int64_t created = 0;  // when its host made it
  int attempts = 0;     // tickets sent while it held a reservation key
  int retracts = 0;     // retracts of the reservations it held
  bool failed = false;  // an attempt failed or it was retracted (the adaptive limit counts it back)
};

class SenderQueue {
 public:
  void admit(uint64_t id, uint64_t vts, int64_t created = 0) { queue_.push_back({id, vts, created, 0, 0, false}); }
  size_t size() const { return queue_.size(); }
  bool empty() const { return queue_.empty(); }
  const QueuedPacket& operator[](size_t i) const { return queue_[i]; }
  QueuedPacket& at_vts(uint64_t vts);
  bool has_vts(uint64_t vts) const;

  struct Send {
    QueuedPacket packet;   // the packet that goes: always the head
    uint64_t buffers_vts;  // the reservation it uses at the members
  };
  // The reservation keyed `vts` is complete at every member: the head goes.
  Send complete(uint64_t vts);

 private:
  std::deque<QueuedPacket> queue_;
};

}  // namespace fabric::ring
