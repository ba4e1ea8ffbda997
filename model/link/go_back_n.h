#pragma once
// Link-level retry on a leaf-spine link (mechanism 10), as plain C++: the
// go-back-N windows of the two ends, with no time of their own.
//
// Sender: every packet gets the next link sequence number and stays in the
// retry buffer (sized for the link round trip) until a cumulative link ACK
// covers it. A NAK names the first sequence number the receiver is missing:
// the sender replays from there, in order. If neither comes for a retry
// timeout (a lost NAK or ACK), the sender replays from its oldest packet.
//
// Receiver: accepts only the next expected sequence number with a good CRC
// and hands packets on in order, exactly once. A bad or out-of-order packet
// is dropped and draws one NAK for the expected number (not again until the
// sender has gone back); a packet it already has (a replay overlapping what
// arrived) is dropped and draws a fresh ACK. ACKs are coalesced: one per
// `ack_every` accepted packets, or when the owner's timer says so.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace fabric {

using LinkSeq = uint64_t;

class GoBackNSender {
 public:
  // capacity: what the retry buffer holds, in the owner's cost unit (bytes
  // on a link; packets when every cost is 1).
  explicit GoBackNSender(size_t capacity);

  bool can_send(size_t cost = 1) const { return held_ + cost <= capacity_; }
  // A new packet (the owner's handle) enters the buffer; returns its number.
  LinkSeq add(uint64_t handle, size_t cost = 1);
  // A new packet that goes on the wire at once (nothing waits for a
  // replay: !has_next()): add() and next() in one step.
  LinkSeq add_sent(uint64_t handle, size_t cost = 1) {
    const LinkSeq seq = add(handle, cost);
    send_pos_ = next_seq_;  // sent_high_ catches up when send_pos_ goes back
    return seq;
  }
  // What to put on the wire next: a replay first, then the next new packet;
  // nullopt when everything in the buffer has been sent.
  struct Out {
    LinkSeq seq;
    uint64_t handle;
    bool replay;
    size_t cost;
  };
  std::optional<Out> next();
  bool has_next() const { return send_pos_ < next_seq_; }
  // Every number up to and including `cumulative` arrived: their entries
  // leave the buffer, each handed to released(handle), oldest first.
  template <class Released>
  void on_ack(LinkSeq cumulative, Released&& released) {
    const LinkSeq end = std::min(cumulative + 1, next_seq_);
    for (; base_ < end; ++base_) {
      const Entry& e = ring_[base_ & mask_];
      released(e.handle);
      held_ -= e.cost;
    }
    if (send_pos_ < base_) send_pos_ = base_;
  }
  void on_ack(LinkSeq cumulative) {
    on_ack(cumulative, [](uint64_t) {});
  }
  // A NAK names the first number missing; it also acknowledges what came before.
  template <class Released>
  void on_nak(LinkSeq first_missing, Released&& released) {
    if (first_missing > 0) on_ack(first_missing - 1, released);
    if (first_missing >= base_ && first_missing < next_seq_ && first_missing < send_pos_) go_back(first_missing);
  }
  void on_nak(LinkSeq first_missing) {
    on_nak(first_missing, [](uint64_t) {});
  }
  void on_timeout() { go_back(base_); }  // nothing heard for the retry timeout: replay all
  bool idle() const { return base_ == next_seq_; }
  size_t buffered() const { return static_cast<size_t>(next_seq_ - base_); }
  size_t held() const { return held_; }
  uint64_t replays() const { return replays_; }
  LinkSeq oldest() const { return base_; }
  // Where the entry of a number lies while the ring is the inline one (no
  // more than kInlineEntries outstanding, as on a link whose buffer fits
  // its round trip): an address to prefetch, computed without reading the
  // sender, before an ACK for it is served.
  const void* inline_entry(uint64_t seq) const { return &inline_[seq & (kInlineEntries - 1)]; }
  GoBackNSender(const GoBackNSender&) = delete;
  GoBackNSender& operator=(const GoBackNSender&) = delete;
  LinkSeq next_new() const { return next_seq_; }

 private:
  struct Entry {
    uint64_t handle;
    size_t cost;
  };
  void grow();  // the ring is full: twice the entries, on the heap (rare)
  void go_back(LinkSeq to) {
    sent_high_ = std::max(sent_high_, send_pos_);
    send_pos_ = to;
  }
  static constexpr size_t kInlineEntries = 32;

  // What a send and an ACK touch come first, in one cache line.
  size_t held_ = 0;
  size_t capacity_;
  LinkSeq base_ = 0;      // oldest unacknowledged
  LinkSeq next_seq_ = 0;  // number of the next new packet
  LinkSeq send_pos_ = 0;  // next number to put on the wire
  LinkSeq mask_ = kInlineEntries - 1;
  // Unacknowledged entries, numbered base_ .. next_seq_ - 1: entry n at
  // ring_[n & mask_], a power of two long: inline_, or heap_ once grown.
  Entry* ring_ = inline_;
  LinkSeq sent_high_ = 0;  // one past the highest number sent, as of the last go-back
  uint64_t replays_ = 0;
  std::vector<Entry> heap_;
  Entry inline_[kInlineEntries];
};

class GoBackNReceiver {
 public:
  explicit GoBackNReceiver(uint32_t ack_every = 4) : ack_every_(ack_every) {}

  enum class Verdict { accept, drop_bad, drop_out_of_order, drop_duplicate };
  Verdict on_packet(LinkSeq seq, bool crc_ok);
  // A NAK to send now (the first missing number), once per gap.
  std::optional<LinkSeq> take_nak();
  // A cumulative ACK to send now: when ack_every packets arrived since the
  // last one, after a duplicate, or when `force` (the owner's ACK timer).
  std::optional<LinkSeq> take_ack(bool force = false);
  LinkSeq expected() const { return expected_; }
  bool ack_ready() const { return ack_due_; }                 // take_ack() would give one
  bool owes_ack() const { return ack_due_ || unacked_ > 0; }  // take_ack(true) would give one
  // The owner's judgement that the NAK for the open gap (or the packet it
  // asked for) was lost: the next out-of-order packet draws another.
  void nak_again() { nak_sent_ = false; }

 private:
  uint32_t ack_every_;
  LinkSeq expected_ = 0;
  uint32_t unacked_ = 0;
  bool nak_due_ = false, nak_sent_ = false, ack_due_ = false;
};

// Inline: every message on a link with retry passes through them.
inline GoBackNReceiver::Verdict GoBackNReceiver::on_packet(LinkSeq seq, bool crc_ok) {
  if (!crc_ok) {
    if (!nak_sent_) nak_due_ = true;
    return Verdict::drop_bad;
  }
  if (seq < expected_) {  // a replay overlapping what arrived: tell the sender again where we are
    ack_due_ = true;
    return Verdict::drop_duplicate;
  }
  if (seq > expected_) {
    if (!nak_sent_) nak_due_ = true;
    return Verdict::drop_out_of_order;
  }
  ++expected_;
  nak_sent_ = false;  // the gap is closed: a new one may be NAKed
  if (++unacked_ >= ack_every_) ack_due_ = true;
  return Verdict::accept;
}

inline std::optional<LinkSeq> GoBackNReceiver::take_nak() {
  if (!nak_due_) return std::nullopt;
  nak_due_ = false;
  nak_sent_ = true;
  return expected_;
}

inline std::optional<LinkSeq> GoBackNReceiver::take_ack(bool force) {
  if (expected_ == 0 || (!ack_due_ && !(force && unacked_ > 0))) return std::nullopt;
  ack_due_ = false;
  unacked_ = 0;
  return expected_ - 1;
}

}  // namespace fabric
