#pragma once
// A bridge of QuickRing rings (platforms.md, E14), as a plain C++ state
// machine: two controllers back to back, side 0 on one ring and side 1 on
// the other, passing frames both ways. The SystemC bridge shell moves its
// frames.
//
// For a group with members beyond it, a controller is one of the group's
// destinations on its ring. On a voucher (a sender sends one ahead of every
// ticket; or on the ticket, when no voucher found room) it reserves one of
// its buffers for the packet, relays the voucher beyond, and its peer
// launches a ticket on the ring beyond, on the sender's behalf (the
// vouchers beyond show the stations there that the sender has moved on,
// which their deliveries in total order wait for); it holds the ticket of its own ring until that ticket comes back,
// then clears its own bit if every bit beyond was clear (convergecast up the
// group's tree) and lets it go on. A ticket that comes back with bits set
// leaves this ring's bit set: the sender retries, and the retry's ticket
// sends the bits still set beyond again (partial reservations are kept).
// With bridge flow control the tickets beyond are paced as a sender's are
// (delayed retry, back-off; its own constants).
//
// Data and vouchers of the group are relayed to the ring beyond, and every
// retract of the group (its holder's reservations beyond may be left from
// an earlier attempt);
// a retract request for a sender beyond is relayed towards it. What a side
// puts on its ring goes in one first-in first-out queue, so a sender's
// frames reach every station beyond in the order it sent them, each with
// the sender's own timestamp (the total order relies on it). A buffer is
// free again when its packet has been relayed.
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "model/core/ids.h"
#include "model/ring/reservation.h"
#include "model/ring/ring_frame.h"
#include "model/ring/ring_layout.h"

namespace fabric::ring {

class BridgeProtocol {
 public:
  struct Side {
    int position = 0;          // of its controller on its ring
    RingLayout layout;         // of its ring
    std::vector<bool> beyond;  // by global station id: reached through the other side
  };
  BridgeProtocol(Side side0, Side side1, int buffers_per_side);

  // A frame reaches side `side`'s controller from upstream on its ring. It
  // may change it (a ticket's bit and carried clock). Returns whether it
  // goes on downstream on that ring now; a ticket held here comes out later
  // through take_frame(side).
  bool receive(int side, RingFrame& frame);

  // Tickets beyond that want to go (first attempts and retries): the shell
  // launches each with launch() when its flow control allows.
  struct Ready {
    int side;  // where the ticket goes on the ring
    Priority priority;
    int attempt;
  };
  void take_ready(std::vector<Ready>& out);
  void launch(int side, const Priority& priority);

  // The packets whose first voucher arrived since the last call, found
  // room here or not: the load offered beyond, which the flow control's
  // permits follow (platforms.md, 2a and 3a: what arrives to be sent, not
  // what gets through). A retry's voucher is not new.
  struct Offered {
    int exit;    // the side whose ring it is for
    int sender;  // global station id
    Picos made;  // by its host
  };
  void take_offered(std::vector<Offered>& out);

  // The next frame side `side` puts on its ring (first in, first out);
  // nullopt when none.
  std::optional<RingFrame> take_frame(int side);
  bool has_frame(int side) const { return !out_[side].empty(); }

  uint64_t relayed(int side) const { return relayed_[side]; }  // data packets put on side's ring
  uint64_t tickets(int side) const { return tickets_[side]; }  // tickets launched on side's ring
  int buffers_used(int side) const;                            // of the buffers for packets going out on `side`
  int held_tickets() const;

 private:
  // A reservation through the bridge: a buffer at the entry side, and its
  // ticket on the exit side's ring.
  struct Crossing {
    Priority priority;
    int group = 0;
    int exit = 0;            // the side whose ring it goes on to
    uint64_t timestamp = 0;  // the sender's, for what goes out on its behalf
    uint32_t pending = 0;    // bits still set on the exit ring
    bool ticket_out = false;
    bool complete = false;      // every bit beyond clear
    bool retracted = false;     // a retract passed while its ticket was out
    bool wants_ticket = false;  // offered to the flow control, not yet launched
    int attempts = 0;
    std::optional<RingFrame> held;  // the entry ring's ticket, waiting here
  };
  Crossing* find(const Priority& p);
  void forget(const Priority& p);
  bool destination(int side, const RingFrame& f) const;
  bool last_here(int side, const RingFrame& f) const;
  void note_offered(int side, const RingFrame& voucher);
  // The entry side reserves a buffer for the sender's packet (true), or the
  // ticket is refused here (and perhaps a retract request goes out).
  bool reserve(int side, const RingFrame& f);
  void want_ticket(Crossing& c);
  void on_ticket(int side, RingFrame& f, bool& keep);
  void on_ticket_back(int side, const RingFrame& f);
  void release_held(Crossing& c);
  void relay(int to_side, RingFrame f);

  Side sides_[2];
  ReceiveBuffers buffers_[2];  // by entry side
  LamportClock clock_;
  std::vector<Crossing> crossings_;
  std::vector<Ready> ready_;
  std::vector<Offered> offered_;
  std::vector<uint64_t> newest_vts_[2];  // by entry side, global station: the newest packet's voucher seen
  std::deque<RingFrame> out_[2];
  ForwardedRequests requests_forwarded_;
  uint64_t relayed_[2] = {0, 0};
  uint64_t tickets_[2] = {0, 0};
};

}  // namespace fabric::ring
