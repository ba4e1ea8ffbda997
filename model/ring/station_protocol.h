#pragma once
// One station of a QuickRing ring running reservation-based, totally
// ordered multicast (platforms.md, E14), as a plain C++ state machine; the
// SystemC station shell moves its frames and decides when its tickets go
// (the flow control's delays). Stations are numbered by ring position;
// groups are contiguous blocks; a station sends to its own group.
//
// Sender side: a host packet gets a VTS from the Lamport clock when the SPQ
// admits it (at most q in reservation; q = 0: no limit). Each reservation,
// keyed by its VTS, sends tickets around the ring; a ticket back with every
// bit clear authorises: the SPQ's head is sent (circular shifting). A ticket
// back with bits set asks for a retry, which keeps the partial
// reservations. A retract request for a reservation whose packet has not
// gone multicasts a retract, and that reservation starts again with every
// bit set.
//
// Member side: a ticket reserves a buffer or asks the lowest holder to
// retract (a request for a holder already asked is dropped, here or in
// transit); a data packet fills its buffer and is delivered in total order,
// which frees the buffer (or frees it on receipt, an option); a retract
// cancels a reservation. A source delivers its own packets in the same
// order.
//
// What a station sends of its own: retract requests and retracts first (in
// the order made), then its tickets (each after its voucher) in SPQ order,
// lowest VTS first (platforms.md, E14, step 2), then its data; or, as an
// option, its data before its tickets.
//
// Every frame is stamped from the clock as it goes on the wire (take_frame):
// a station's frames then pass every other station in timestamp order,
// which total order needs (control frames overtake data queued before them).
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "model/ring/reservation.h"
#include "model/ring/ring_frame.h"
#include "model/ring/ring_layout.h"
#include "model/ring/sender_queue.h"
#include "model/ring/total_order.h"

namespace fabric::ring {

struct Delivery {
  int source;
  uint64_t packet;
  uint64_t ots;
  int64_t created;  // when its host made it (as host_packet() was told)
};

// What the sender side did that its flow control and recording want to know.
struct SenderNotice {
  enum class Kind {
    authorised,  // a packet was sent: its attempts and retracts below
    failed,      // a ticket came back with bits set
    retracted    // a retract request made it multicast a retract
  } kind;
  uint64_t packet = 0;     // authorised: the packet sent
  int attempts = 0;        // authorised: tickets sent while it held a reservation key
  int retracts = 0;        // authorised: retracts of its reservations
  bool recovered = false;  // authorised: it had failed or been retracted before
  int64_t created = 0;     // authorised: when its host made it
};

enum class OwnFrames {
  control_first,  // retracts, tickets, then data (platforms.md's default)
  data_first      // retracts, data, then tickets
};

class StationProtocol {
 public:
  // The station at `position` of a ring laid out as `layout`, `id` its
  // global station id (its reservations' priority), `groups` by global id.
  // `free_on_receipt`: a buffer is freed when its packet is in (the host
  // takes it at once), not when it is delivered in order.
  StationProtocol(int position, int id, RingLayout layout, int buffers, const std::vector<RingGroup>& groups,
                  bool free_on_receipt = false, OwnFrames own_frames = OwnFrames::control_first);
  // A station of a lone ring, whose positions are the station ids.
  StationProtocol(int station, int stations, int buffers, const std::vector<RingGroup>& groups,
                  bool free_on_receipt = false)
      : StationProtocol(station, station, RingLayout::single_ring(stations, groups), buffers, groups, free_on_receipt) {
  }

  // The host hands a packet to send to this station's group, made at `created`.
  void host_packet(uint64_t id, int64_t created = 0);
  // The SPQ limit q (0: none).
  void set_limit(int q);
  int limit() const { return limit_; }

  // A frame reaches this station from upstream; it may change it (a
  // ticket's map bit, a ticket's carried clock). Returns whether it goes on
  // downstream; what the station itself sends waits for take_frame().
  bool receive(RingFrame& frame);

  // Reservations that want a ticket sent (first attempts and retries); the
  // shell sends each with send_ticket() when its flow control allows.
  struct Ready {
    uint64_t vts;
    int attempt;  // 1 for a first attempt
  };
  // Each take_*() hands its list over into `out` (cleared first): the two
  // vectors trade buffers, so nothing is allocated once both have grown.
  void take_ready_tickets(std::vector<Ready>& out);
  void send_ticket(uint64_t vts);
  Priority priority_of(uint64_t vts) const { return {vts, id_}; }

  // The next frame this station sends (control frames before data),
  // stamped now; nullopt when it has none.
  std::optional<RingFrame> take_frame();
  bool has_frame() const { return !retracts_out_.empty() || !tickets_out_.empty() || !data_out_.empty(); }

  void take_deliveries(std::vector<Delivery>& out);
  void take_notices(std::vector<SenderNotice>& out);

  // Counters and state.
  uint64_t packets_sent() const { return packets_sent_; }
  uint64_t tickets_sent() const { return tickets_sent_; }
  uint64_t retracts_sent() const { return retracts_sent_; }
  uint64_t retract_requests() const { return retract_requests_; }
  size_t spq() const { return spq_.size(); }
  size_t waiting() const { return host_.size(); }
  const ReceiveBuffers& buffers() const { return buffers_; }
  // Whether `f` is a packet this station, a member of its group, is to
  // receive into a buffer of its own: the reservation it must find.
  bool receives_packet(const RingFrame& f) const {
    return f.kind == FrameKind::data && f.origin != id_ && member_of(f.group);
  }
  uint64_t clock() const { return clock_.now(); }
  bool sends() const { return my_group_ >= 0; }
  // Packets buffered for in-order delivery.
  size_t undelivered() const;

 private:
  struct Reservation {
    uint64_t vts = 0;         // its key (with this station)
    uint32_t pending = 0;     // stations still to reserve
    bool ticket_out = false;  // a ticket is on the ring
    bool retracted = false;   // a retract went out while its ticket was on the ring
  };
  Reservation* reservation(uint64_t vts);
  void admit();
  void on_ticket(RingFrame& f);
  void on_ticket_back(const RingFrame& f);
  void on_data(const RingFrame& f);
  void on_retract_request(const RingFrame& f);
  void authorise(uint64_t vts);
  void deliver_ready(int group);
  bool member_of(int group) const { return order_.count(group) != 0; }

  int position_, id_;
  RingLayout layout_;
  bool free_on_receipt_;
  ReceiveBuffers buffers_;
  std::vector<RingGroup> groups_;
  int my_group_ = -1;      // the group it sends to
  int member_group_ = -1;  // the group it is a member of
  LamportClock clock_;
  std::deque<std::pair<uint64_t, int64_t>> host_;  // (packet, created)
  SenderQueue spq_;
  int limit_ = 0;
  // By VTS: admitted in VTS order, so appended in order; a completed one
  // leaves from anywhere (circular shifting).
  std::vector<Reservation> reservations_;
  std::vector<Ready> ready_;
  std::map<int, TotalOrder> order_;  // by group this station is a member of
  ForwardedRequests requests_forwarded_;
  OwnFrames own_frames_;
  std::deque<RingFrame> retracts_out_, tickets_out_, data_out_;  // what it sends, by kind
  void queue_ticket(const RingFrame& f);
  std::vector<Delivery> delivered_;
  std::vector<SenderNotice> notices_;
  uint64_t packets_sent_ = 0, tickets_sent_ = 0, retracts_sent_ = 0, retract_requests_ = 0;
};

}  // namespace fabric::ring
