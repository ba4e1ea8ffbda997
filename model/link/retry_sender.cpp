#include "model/link/retry_sender.h"

#include <algorithm>

#include "model/link/tx_port.h"

namespace fabric {

namespace {
Payload* as_payload(uint64_t handle) { return reinterpret_cast<Payload*>(static_cast<uintptr_t>(handle)); }
void release_handle(uint64_t handle) { as_payload(handle)->release(); }
}  // namespace

void RetrySender::release_acknowledged(uint64_t handle) { pool_.release_later(*as_payload(handle)); }

RetrySender::RetrySender(const LinkRetryParams& params, PayloadPool& pool, std::string link)
    : pool_(pool),
      ack_delay_(params.ack_delay),
      timeout_(params.timeout),
      control_bytes_(params.control_bytes),
      ack_piggyback_(params.ack_piggyback),
      window_(params.buffer_bytes),
      link_(std::move(link)) {}

RetrySender::~RetrySender() {
  // What the buffer still holds at the end of the run goes back to the pool.
  window_.on_ack(window_.next_new(), release_handle);
}

LinkSeq RetrySender::widen(uint32_t seq) const {
  const LinkSeq top = window_.next_new();
  return top - static_cast<uint32_t>(static_cast<uint32_t>(top) - seq);
}

LinkSeq RetrySender::widen(uint16_t low_bits) const {
  const LinkSeq top = window_.next_new();
  return top - static_cast<uint16_t>(static_cast<uint16_t>(top) - low_bits);
}

Payload& RetrySender::link_control(ControlKind kind, uint32_t seq) {
  Payload& m = pool_.acquire(MessageKind::control, control_bytes_);
  ControlMessage& c = control_of(m);
  c.kind = kind;
  c.units = seq;
  c.count = 1;
  return m;
}

Payload* RetrySender::take_urgent(Picos now) {
  if (nak_owed_) {
    nak_owed_ = false;
    ++naks_sent_;
    return &link_control(ControlKind::link_nak, nak_seq_);
  }
  if (!ack_piggyback_)
    if (Payload* ack = take_due_ack(now)) return ack;
  if (!window_.has_next()) return nullptr;
  // A replay, the rare case: a copy of the message the buffer refers to.
  // If the receiver took that message, it may have been forwarded and
  // changed since, but then the replay is a duplicate the receiver drops
  // on its link sequence number: what it checks is restored here, as sent.
  const GoBackNSender::Out out = *window_.next();
  Payload& copy = pool_.clone(*as_payload(out.handle));
  carry_ack(copy);
  MessageInfo& info = info_of(copy);
  info.link_seq = static_cast<uint32_t>(out.seq);
  info.wire_bytes = static_cast<uint32_t>(out.cost);
  info.ready_at = 0;
  info.replay = true;
  return &copy;
}

Payload* RetrySender::take_due_ack(Picos now) {
  if (!ack_owed_ || now < ack_due_) return nullptr;
  ack_owed_ = false;
  ++acks_sent_;
  return &link_control(ControlKind::link_ack, ack_seq_);
}

void RetrySender::carry_ack(Payload& message) {
  MessageInfo& info = info_of(message);
  info.carries_link_ack = ack_piggyback_ && ack_owed_;
  if (!info.carries_link_ack) return;
  info.link_ack = static_cast<uint16_t>(ack_seq_);
  ack_owed_ = false;
  ++acks_carried_;
}

Payload& RetrySender::admit(Payload& message, Picos now) {
  if (window_.idle()) last_heard_ = now;  // the timeout counts from the first message outstanding
  MessageInfo& info = info_of(message);
  // The buffer keeps a reference: the message itself goes on the wire.
  message.acquire();
  info.link_seq = static_cast<uint32_t>(window_.add_sent(reinterpret_cast<uintptr_t>(&message), info.wire_bytes));
  return message;
}

Picos RetrySender::next_deadline() const {
  if (nak_owed_ || window_.has_next()) return 0;  // due now
  return ack_owed_ ? ack_due_ : kNever;
}

bool RetrySender::check_timeout(Picos now) {
  if (window_.idle() || now < last_heard_ + timeout_) return false;
  ++timeouts_;
  start_replay(window_.oldest(), now);
  window_.on_timeout();
  return true;
}

void RetrySender::start_replay(LinkSeq from, Picos now) {
  last_heard_ = now;
  const LinkSeq count = window_.next_new() - from;
  if (count == 0) return;
  ++episodes_;
  if (observer_) observer_->on_replay(now, count);
}

void RetrySender::heard(Picos now) { last_heard_ = now; }

bool RetrySender::owe_ack(uint32_t cumulative, bool now_due, Picos now) {
  const bool newly = !ack_owed_;
  if (newly) ack_due_ = now + ack_delay_;
  ack_owed_ = true;
  ack_seq_ = cumulative;
  if (now_due) ack_due_ = now;
  return newly;
}

void RetrySender::owe_nak(uint32_t first_missing) {
  nak_owed_ = true;
  nak_seq_ = first_missing;
}

void RetrySender::acknowledge(LinkSeq seq, Picos now) {
  if (seq >= window_.next_new()) return;  // not a number this sender gave out
  if (seq < window_.oldest()) return;     // stale: covered by an earlier ACK
  heard(now);
  // The messages it covers left long ago: the pool releases them at the
  // end of the time window, all in one pass.
  window_.on_ack(seq, [this](uint64_t handle) { release_acknowledged(handle); });
}

void RetrySender::on_nak(uint32_t first_missing, Picos now) {
  const LinkSeq seq = widen(first_missing);
  if (seq > window_.next_new()) return;
  heard(now);
  window_.on_nak(seq, [this](uint64_t handle) { release_acknowledged(handle); });
  if (seq < window_.next_new()) start_replay(seq, now);
}

}  // namespace fabric
