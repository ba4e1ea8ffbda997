#pragma once
// The sending half of link-level retry (mechanism 10) on one leaf-spine
// link, owned by its TxPort. Every message it sends (data and control, but
// link ACKs and NAKs) gets a link sequence number and stays in the retry
// buffer until a link ACK covers it: the buffer holds a reference to the
// message (its reference count) and its number and size, while the message
// itself goes on. A NAK or a silent retry timeout replays go-back-N from the
// buffer (a copy of each message), ahead of new messages; while the buffer
// is full nothing new goes. At a bit error rate of 0 a message costs the
// sender a ring entry, and an ACK a walk over its own ring.
//
// It also carries the link ACKs and NAKs of the reverse link's receiver
// (RetryReceiver), which travel as 10 B control messages of their own:
// a NAK at once, an ACK once `ack_every` messages arrived or the oldest
// unacknowledged one has waited `ack_delay` (coalesced: the latest
// cumulative number is the one sent). With `ack_piggyback` (a what-if) an
// owed ACK rides on the next message the port sends instead, due or not,
// and goes alone only when it is due and nothing else leaves.
#include <cstdint>
#include <string>

#include "model/core/ids.h"
#include "model/link/go_back_n.h"
#include "model/link/link_observer.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

// From the link.retry.* keys (read_link_retry_params), which hold the defaults.
struct LinkRetryParams {
  bool enabled = false;
  uint32_t buffer_bytes = 0;   // retry buffer: at least the link round trip at line rate
  uint32_t ack_every = 0;      // messages accepted per coalesced link ACK
  Picos ack_delay = 0;         // ... or the longest an accepted message waits for its ACK
  bool ack_piggyback = false;  // an owed ACK rides on the next message sent (MessageInfo::link_ack)
  Picos timeout = 0;           // no ACK or NAK for this long with messages outstanding: replay all
  uint32_t control_bytes = 0;  // a link ACK or NAK on the wire (leaf.control_bytes)
};

class alignas(64) RetrySender {
 public:
  // `link` names the link (for reports).
  RetrySender(const LinkRetryParams& params, PayloadPool& pool, std::string link);
  ~RetrySender();
  RetrySender(const RetrySender&) = delete;
  RetrySender& operator=(const RetrySender&) = delete;

  // A link ACK or NAK that is due now, else a replay: the message to send
  // (owned by the caller, like any message sent), or nullptr. With
  // ack_piggyback the ACK is not among them: see carry_ack and take_due_ack.
  Payload* take_urgent(Picos now);
  // With ack_piggyback: an owed ACK onto `message` (any message sent but a
  // link ACK or NAK); it is no longer owed. Without: clears the field.
  void carry_ack(Payload& message);
  // An owed ACK that is due now, as a message of its own, or nullptr.
  Payload* take_due_ack(Picos now);
  bool acks_ride() const { return ack_piggyback_; }
  // Whether a new message of up to `wire_bytes` fits the retry buffer.
  bool has_room(uint32_t wire_bytes) const { return window_.can_send(wire_bytes); }
  // A new message: numbered, a reference kept; returns it, to send.
  Payload& admit(Payload& message, Picos now);
  // When the port must look again by itself: now (0) for a NAK or a replay,
  // an owed ACK's deadline; kNever: nothing pending.
  Picos next_deadline() const;
  // Whether something is to be sent by `t`: a NAK, a replay, a due link ACK.
  bool urgent(Picos t) const { return nak_owed_ || window_.has_next() || (ack_owed_ && ack_due_ <= t); }
  // When the retry timeout falls due if nothing is heard; kNever with
  // nothing outstanding.
  Picos timeout_at() const { return window_.idle() ? kNever : last_heard_ + timeout_; }
  // Past the timeout: replay everything outstanding (returns true).
  bool check_timeout(Picos now);

  // From the reverse link's receiver: a link ACK or NAK to send.
  // Returns true when no ACK was owed before (its deadline starts now).
  bool owe_ack(uint32_t cumulative, bool now_due, Picos now);
  void owe_nak(uint32_t first_missing);
  // Link ACK and NAK that arrived for this link; an ACK that rode on a
  // message (its low 16 bits, MessageInfo::link_ack).
  void on_ack(uint32_t cumulative, Picos now) { acknowledge(widen(cumulative), now); }
  void on_carried_ack(uint16_t low_bits, Picos now) { acknowledge(widen(low_bits), now); }
  void on_nak(uint32_t first_missing, Picos now);

  uint64_t replays() const { return window_.replays(); }
  uint64_t replay_episodes() const { return episodes_; }
  uint64_t timeouts() const { return timeouts_; }
  uint64_t link_acks_sent() const { return acks_sent_; }        // as messages of their own
  uint64_t link_acks_carried() const { return acks_carried_; }  // riding on other messages
  uint64_t link_naks_sent() const { return naks_sent_; }
  const std::string& link() const { return link_; }
  // Who hears of each replay (a LinkProbe), or null.
  void set_observer(LinkObserver* observer) { observer_ = observer; }
  // Brings what a send, an ACK or an owed ACK touch into the cache.
  void prefetch() const {
    __builtin_prefetch(this);
    __builtin_prefetch(reinterpret_cast<const char*>(this) + 64);
  }
  // A link ACK up to `cumulative` (its number on the wire) is coming:
  // brings in the ring entries it will release, the last 8 (the default
  // ack_every; a prefetch, so a guess). Address arithmetic only: it reads
  // nothing of the sender, whose lines are on their way too.
  void prefetch_acked(uint32_t cumulative) const {
    __builtin_prefetch(window_.inline_entry(cumulative - 7));
    __builtin_prefetch(window_.inline_entry(cumulative - 3));
    __builtin_prefetch(window_.inline_entry(cumulative));
  }

 private:
  LinkSeq widen(uint32_t seq) const;  // a number on the wire, within the window
  LinkSeq widen(uint16_t low_bits) const;
  void acknowledge(LinkSeq seq, Picos now);
  Payload& link_control(ControlKind kind, uint32_t seq);
  void start_replay(LinkSeq from, Picos now);
  void heard(Picos now);
  void release_acknowledged(uint64_t handle);

  // A send, an ACK and an owed ACK touch the first two cache lines: the
  // link ACK and NAK owed, the times, the pool and the parameters they use
  // (first), the window (second).
  Picos ack_due_ = 0;
  Picos last_heard_ = 0;  // last ACK or NAK progress, or when the buffer stopped being empty
  PayloadPool& pool_;
  const Picos ack_delay_;
  const Picos timeout_;
  uint32_t nak_seq_ = 0;
  uint32_t ack_seq_ = 0;
  const uint32_t control_bytes_;
  bool nak_owed_ = false;
  bool ack_owed_ = false;
  const bool ack_piggyback_;
  uint64_t acks_sent_ = 0;
  GoBackNSender window_;
  LinkObserver* observer_ = nullptr;  // told of each replay; null: nobody listens
  std::string link_;
  uint64_t episodes_ = 0, timeouts_ = 0, naks_sent_ = 0, acks_carried_ = 0;
};

}  // namespace fabric
