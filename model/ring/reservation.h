#pragma once
// The reservation protocol of QuickRing multicast (platforms.md, E14), its
// small parts as plain C++: Lamport clocks, reservation priorities, a
// station's receive buffers reserved by priority, and tickets with their
// map bits.
#include <cstdint>
#include <optional>
#include <vector>

namespace fabric::ring {

// A Lamport clock: a station's events are ordered, and a timestamp seen from
// another station moves it past that one.
class LamportClock {
 public:
  uint64_t tick() { return ++now_; }  // a local event: its timestamp
  void observe(uint64_t seen) {
    if (seen > now_) now_ = seen;
  }
  uint64_t now() const { return now_; }

 private:
  uint64_t now_ = 0;
};

// A reservation's priority: (voucher timestamp, station id), lower is higher.
struct Priority {
  uint64_t vts = 0;
  int station = 0;
  bool operator<(const Priority& o) const { return vts != o.vts ? vts < o.vts : station < o.station; }
  bool operator==(const Priority& o) const { return vts == o.vts && station == o.station; }
  bool operator!=(const Priority& o) const { return !(*this == o); }
};

// What a station does with a ticket that reaches it.
struct TicketOutcome {
  enum class Kind {
    reserved,        // a free buffer is now reserved for the ticket: its bit is cleared
    already_held,    // a buffer was reserved by an earlier attempt (kept): its bit is cleared
    full,            // no free buffer; no reservation here is of lower priority
    retract_request  // no free buffer: the holder of `victim` (the lowest) is asked to retract
  } kind = Kind::full;
  Priority victim;
};

// A station's receive buffers (20 by default), each free, reserved for a
// priority, or holding a packet that awaits delivery.
class ReceiveBuffers {
 public:
  explicit ReceiveBuffers(int buffers) : capacity_(buffers) {}

  // A ticket of priority `p` asks for a buffer.
  TicketOutcome on_ticket(const Priority& p);
  bool holds(const Priority& p) const;
  // The packet of priority `p` arrives into its reserved buffer (false: none
  // was reserved, which the protocol rules out).
  bool fill(const Priority& p);
  // A retract cancels the reservation of `p` (nothing if there is none or its
  // packet is already in).
  void cancel(const Priority& p);
  // The packet of `p` was delivered to the host: its buffer is free.
  void release(const Priority& p);

  int free() const { return capacity_ - static_cast<int>(entries_.size()); }
  int capacity() const { return capacity_; }
  int reserved() const;  // not yet filled
  int filled() const;
  // Whether `station` holds a reservation here whose packet has not come.
  bool awaits(int station) const;
  // The distinct senders holding a buffer here, reserved or filled (the
  // document's U_i: each reserved buffer holds a ticket with its source's UID).
  int holders() const;

 private:
  struct Entry {
    Priority priority;
    bool filled = false;
  };
  const Entry* find(const Priority& p) const;
  int capacity_;
  std::vector<Entry> entries_;
};

// The retract requests a station sent or passed on, each until the
// holder's retract or packet passes: a duplicate for the same holder goes
// no further.
class ForwardedRequests {
 public:
  // False when a request for `victim` was already forwarded.
  bool note(const Priority& victim);
  void forget(const Priority& victim);

 private:
  std::vector<Priority> victims_;
};

// A ticket's map: one bit per member station and per bridge still to
// reserve. A ticket authorises its packet when it comes back with every bit
// clear; a retry carries the bits still set.
class TicketMap {
 public:
  explicit TicketMap(const std::vector<int>& stations) : pending_(stations) {}
  bool pending(int station) const;
  void clear(int station);
  bool all_clear() const { return pending_.empty(); }
  const std::vector<int>& still_set() const { return pending_; }

 private:
  std::vector<int> pending_;  // stations (members and bridges) whose bit is set
};

}  // namespace fabric::ring
