#pragma once
// The CNAs' end-to-end transport (mechanism 10, cna.e2e.*), as plain C++:
// what recovers unicast frames lost where link retry does not reach, the
// CNA-leaf links above all (a frame corrupted there never reaches a leaf, so
// the leaves' end-to-end layer cannot resend it).
//
// Sender: every unicast frame gets a sequence number per (destination port,
// priority) and stays here until a cumulative ACK covers it. A NAK, or the
// oldest unacknowledged frame of a pair waiting `timeout` since it was last
// sent, sends every unacknowledged frame of the pair again, in order, ahead
// of new frames of that priority (go-back-N).
//
// Receiver: per (source port, priority) a GoBackNReceiver, the window link
// retry uses too. The frame with the next expected number is delivered; an
// older one is a duplicate, dropped, and draws an ACK at once; a later one
// means a frame was lost: it is dropped too (go-back-N) and a NAK asks for
// the expected number (again if frames after the gap still come `nak_retry`
// after the last NAK: that NAK or its resend was lost). ACKs are cumulative
// and coalesced: one per `ack_every` frames, or `ack_delay` after the first
// frame not yet acknowledged. ACKs and NAKs are small frames of the same
// priority sent back through the fabric (the CNA builds them).
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "model/cna/queued_frame.h"
#include "model/core/frame_header.h"
#include "model/core/ids.h"
#include "model/link/go_back_n.h"

namespace fabric {

// From the cna.e2e.* keys, which hold the defaults.
struct E2eTransportParams {
  bool enabled = false;
  uint8_t priorities = 0;  // bit p: frames of priority p are numbered (covered)
  Picos timeout = 0;       // beyond the leaves' own recovery
  uint32_t ack_every = 0;
  Picos ack_delay = 0;
  Picos nak_retry = 0;  // NAK a gap again if frames after it still come this long after
};

constexpr uint32_t kTransportAckBytes = 64;    // an ACK or NAK frame (the minimum Ethernet frame)
constexpr FlowId kTransportFlow{0xFFFFFFFFu};  // the flow id ACK and NAK frames carry (drops, CNMs)

class E2eTransport {
 public:
  explicit E2eTransport(const E2eTransportParams& params) : params_(params) {}

  // ---- sender ----
  // A new frame leaves now: its sequence number; kept until acknowledged.
  uint32_t on_send(PortId dst, uint8_t priority, const QueuedFrame& frame, Picos now);
  // A cumulative ACK or a NAK from `from` for `priority`: every frame below
  // `next` has arrived. A NAK also asks for `next` and what follows it, and
  // returns true when frames were queued to be sent again.
  void on_ack(PortId from, uint8_t priority, uint32_t next);
  bool on_nak(PortId from, uint8_t priority, uint32_t next);
  // Pairs whose oldest frame timed out go back N. Returns true when frames
  // were queued to be sent again.
  bool expire(Picos now);

  struct Resend {
    QueuedFrame frame;
    PortId dst;
    uint32_t seq;
  };
  // Forgets queued resends that an ACK has covered since, so that
  // has_resend() is exact.
  void drop_acknowledged_resends();
  bool has_resend(uint8_t priority) const { return !resend_[priority].empty(); }
  // The next frame to send again at `priority`, if any is still unacknowledged.
  std::optional<Resend> take_resend(uint8_t priority, Picos now);

  // ---- receiver ----
  enum class Verdict { deliver, duplicate, out_of_order };
  struct Received {
    Verdict verdict;
    bool wake;  // a reply became ready or an ACK delay started: the CNA must look at next_due()
  };
  Received on_data(PortId from, uint8_t priority, uint32_t seq, Picos now);

  struct Reply {
    PortId to;
    uint8_t priority;
    TransportKind kind;  // ack or nak
    uint32_t next;       // the next expected sequence number
  };
  // Moves ACKs whose delay ran out to the ready replies.
  void release_due_acks(Picos now);
  bool has_reply(uint8_t priority) const { return !replies_[priority].empty(); }
  std::optional<Reply> take_reply(uint8_t priority);

  // The earliest time something falls due (an ACK delay or a timeout); kNever if none.
  Picos next_due() const;
  uint64_t unacknowledged() const { return unacked_frames_; }

  // Totals.
  uint64_t retransmitted() const { return retransmitted_; }  // frames sent again
  uint64_t go_back_episodes() const { return episodes_; }
  uint64_t timeouts() const { return timeouts_; }
  uint64_t duplicates() const { return duplicates_; }      // received again, dropped
  uint64_t out_of_order() const { return out_of_order_; }  // received after a gap, dropped
  uint64_t acks_sent() const { return acks_sent_; }
  uint64_t naks_sent() const { return naks_sent_; }

 private:
  struct Sent {
    QueuedFrame frame;
    uint32_t seq;
    Picos sent_at;
    bool queued = false;  // waiting in a resend queue
  };
  struct SendPair {
    SendPair(PortId d, uint8_t p) : dst(d), priority(p) {}
    PortId dst;
    uint8_t priority;
    uint32_t next_seq = 0;
    std::deque<Sent> unacked;  // in sequence order
    bool timer_armed = false;  // one timer per pair with frames unacknowledged
  };
  struct ReceivePair {
    ReceivePair(PortId s, uint8_t p, uint32_t ack_every) : src(s), priority(p), window(ack_every) {}
    PortId src;
    uint8_t priority;
    GoBackNReceiver window;
    Picos nak_at = 0;  // when the last NAK was asked for
    bool reply_queued = false;
    bool nak_due = false;
    Picos ack_due = kNever;  // while an ACK delay runs: when it ends
  };
  struct Timer {
    Picos due;
    uint64_t pair;
    // Earliest first; equal times by pair, so runs repeat exactly.
    bool operator>(const Timer& o) const { return due != o.due ? due > o.due : pair > o.pair; }
  };
  static uint64_t key(PortId port, uint8_t priority) { return (uint64_t{raw(port)} << 8) | priority; }
  void arm(uint64_t k, SendPair& pair, Picos due);
  bool go_back(SendPair& pair, uint64_t k);  // every unacknowledged frame of the pair again
  void acknowledge(SendPair& pair, uint32_t next);
  void queue_reply(uint64_t k, ReceivePair& pair);
  bool acknowledged(uint64_t k, uint32_t seq) const;

  E2eTransportParams params_;
  std::unordered_map<uint64_t, SendPair> send_;
  std::unordered_map<uint64_t, ReceivePair> receive_;
  // Retransmission timers, one per pair with frames unacknowledged: due when
  // its oldest frame's timeout runs out (re-armed lazily as ACKs come).
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  std::deque<Timer> ack_delays_;                                   // one ACK delay for all: a FIFO is in time order
  std::deque<std::pair<uint64_t, uint32_t>> resend_[kPriorities];  // (pair, seq)
  std::deque<uint64_t> replies_[kPriorities];                      // receive pairs owed a reply
  uint64_t unacked_frames_ = 0;
  uint64_t retransmitted_ = 0, episodes_ = 0, timeouts_ = 0, duplicates_ = 0, out_of_order_ = 0;
  uint64_t acks_sent_ = 0, naks_sent_ = 0;
};

}  // namespace fabric
