#include "model/cna/e2e_transport.h"

#include <algorithm>

namespace fabric {

namespace {
// Sequence numbers compare by their distance, so they may wrap.
int32_t distance(uint32_t from, uint32_t to) { return static_cast<int32_t>(to - from); }
}  // namespace

// ---- sender ----

uint32_t E2eTransport::on_send(PortId dst, uint8_t priority, const QueuedFrame& frame, Picos now) {
  const uint64_t k = key(dst, priority);
  SendPair& pair = send_.try_emplace(k, dst, priority).first->second;
  const uint32_t seq = pair.next_seq++;
  pair.unacked.push_back({frame, seq, now});
  ++unacked_frames_;
  arm(k, pair, now + params_.timeout);
  return seq;
}

void E2eTransport::arm(uint64_t k, SendPair& pair, Picos due) {
  if (pair.timer_armed) return;
  pair.timer_armed = true;
  timers_.push({due, k});
}

void E2eTransport::acknowledge(SendPair& pair, uint32_t next) {
  while (!pair.unacked.empty() && distance(pair.unacked.front().seq, next) > 0) {
    pair.unacked.pop_front();
    --unacked_frames_;
  }
}

void E2eTransport::on_ack(PortId from, uint8_t priority, uint32_t next) {
  auto it = send_.find(key(from, priority));
  if (it != send_.end()) acknowledge(it->second, next);
}

bool E2eTransport::on_nak(PortId from, uint8_t priority, uint32_t next) {
  auto it = send_.find(key(from, priority));
  if (it == send_.end()) return false;
  SendPair& pair = it->second;
  acknowledge(pair, next);
  if (pair.unacked.empty() || pair.unacked.front().seq != next) return false;  // a stale NAK
  return go_back(pair, it->first);
}

bool E2eTransport::go_back(SendPair& pair, uint64_t k) {
  bool queued = false;
  for (Sent& s : pair.unacked) {
    if (s.queued) continue;
    s.queued = queued = true;
    resend_[pair.priority].emplace_back(k, s.seq);
  }
  episodes_ += queued;
  return queued;
}

bool E2eTransport::expire(Picos now) {
  bool queued = false;
  while (!timers_.empty() && timers_.top().due <= now) {
    const uint64_t k = timers_.top().pair;
    timers_.pop();
    SendPair& pair = send_.find(k)->second;
    pair.timer_armed = false;
    if (pair.unacked.empty()) continue;
    const Sent& oldest = pair.unacked.front();
    if (!oldest.queued && oldest.sent_at + params_.timeout <= now) {
      ++timeouts_;
      queued |= go_back(pair, k);
    }
    // While the oldest waits to be sent again, look again a timeout later;
    // else when its own timeout runs out.
    const Sent& front = pair.unacked.front();
    arm(k, pair, front.queued ? now + params_.timeout : front.sent_at + params_.timeout);
  }
  return queued;
}

bool E2eTransport::acknowledged(uint64_t k, uint32_t seq) const {
  const SendPair& pair = send_.find(k)->second;
  return pair.unacked.empty() || distance(pair.unacked.front().seq, seq) < 0;
}

void E2eTransport::drop_acknowledged_resends() {
  for (auto& queue : resend_)
    while (!queue.empty() && acknowledged(queue.front().first, queue.front().second)) queue.pop_front();
}

std::optional<E2eTransport::Resend> E2eTransport::take_resend(uint8_t priority, Picos now) {
  auto& queue = resend_[priority];
  while (!queue.empty()) {
    const auto [k, seq] = queue.front();
    queue.pop_front();
    if (acknowledged(k, seq)) continue;
    SendPair& pair = send_.find(k)->second;
    Sent& s = pair.unacked[static_cast<size_t>(distance(pair.unacked.front().seq, seq))];
    s.queued = false;
    s.sent_at = now;
    ++retransmitted_;
    arm(k, pair, now + params_.timeout);
    return Resend{s.frame, pair.dst, seq};
  }
  return std::nullopt;
}

// ---- receiver ----

E2eTransport::Received E2eTransport::on_data(PortId from, uint8_t priority, uint32_t seq, Picos now) {
  const uint64_t k = key(from, priority);
  ReceivePair& pair = receive_.try_emplace(k, from, priority, params_.ack_every).first->second;
  GoBackNReceiver& window = pair.window;
  const int32_t ahead = distance(static_cast<uint32_t>(window.expected()), seq);
  if (ahead > 0 && now - pair.nak_at >= params_.nak_retry) window.nak_again();
  const GoBackNReceiver::Verdict verdict = window.on_packet(window.expected() + ahead, true);
  if (verdict == GoBackNReceiver::Verdict::drop_out_of_order) {  // a gap: a frame before this one was lost
    ++out_of_order_;
    if (!window.take_nak()) return {Verdict::out_of_order, false};
    pair.nak_due = true;
    pair.nak_at = now;
    queue_reply(k, pair);
    return {Verdict::out_of_order, true};
  }
  const bool duplicate = verdict == GoBackNReceiver::Verdict::drop_duplicate;
  duplicates_ += duplicate;  // its ACK was lost or late: the window acknowledges again
  const Verdict v = duplicate ? Verdict::duplicate : Verdict::deliver;
  if (window.ack_ready()) {
    const bool was_queued = pair.reply_queued;
    queue_reply(k, pair);
    return {v, !was_queued};
  }
  if (pair.ack_due != kNever || pair.reply_queued) return {v, false};
  pair.ack_due = now + params_.ack_delay;
  ack_delays_.push_back({pair.ack_due, k});
  return {v, true};
}

void E2eTransport::queue_reply(uint64_t k, ReceivePair& pair) {
  if (pair.reply_queued) return;
  pair.reply_queued = true;
  replies_[pair.priority].push_back(k);
}

void E2eTransport::release_due_acks(Picos now) {
  while (!ack_delays_.empty() && ack_delays_.front().due <= now) {
    const Timer t = ack_delays_.front();
    ack_delays_.pop_front();
    ReceivePair& pair = receive_.find(t.pair)->second;
    if (pair.ack_due != t.due) continue;  // a reply went before the delay ended
    pair.ack_due = kNever;
    if (pair.window.owes_ack()) queue_reply(t.pair, pair);
  }
}

std::optional<E2eTransport::Reply> E2eTransport::take_reply(uint8_t priority) {
  auto& queue = replies_[priority];
  while (!queue.empty()) {
    ReceivePair& pair = receive_.find(queue.front())->second;
    queue.pop_front();
    pair.reply_queued = false;
    const bool nak = pair.nak_due;
    // A NAK acknowledges what came before the gap too.
    const bool acknowledges = pair.window.take_ack(true).has_value();
    if (!nak && !acknowledges) continue;
    pair.nak_due = false;
    pair.ack_due = kNever;
    ++(nak ? naks_sent_ : acks_sent_);
    const auto next = static_cast<uint32_t>(pair.window.expected());
    return Reply{pair.src, priority, nak ? TransportKind::nak : TransportKind::ack, next};
  }
  return std::nullopt;
}

Picos E2eTransport::next_due() const {
  Picos t = kNever;
  if (!timers_.empty()) t = timers_.top().due;
  if (!ack_delays_.empty()) t = std::min(t, ack_delays_.front().due);
  return t;
}

}  // namespace fabric
