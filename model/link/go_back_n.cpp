#include "model/link/go_back_n.h"

#include <algorithm>
#include <stdexcept>

namespace fabric {

GoBackNSender::GoBackNSender(size_t capacity) : capacity_(capacity) {
  if (capacity_ < 1) throw std::invalid_argument("go-back-N: a retry buffer of at least one packet");
}

void GoBackNSender::grow() {
  std::vector<Entry> wider((mask_ + 1) * 2);
  for (LinkSeq n = base_; n < next_seq_; ++n) wider[n & (wider.size() - 1)] = ring_[n & mask_];
  heap_.swap(wider);
  ring_ = heap_.data();
  mask_ = heap_.size() - 1;
}

LinkSeq GoBackNSender::add(uint64_t handle, size_t cost) {
  if (!can_send(cost)) throw std::logic_error("go-back-N: retry buffer full");
  if (next_seq_ - base_ == mask_ + 1) grow();
  ring_[next_seq_ & mask_] = {handle, cost};
  held_ += cost;
  return next_seq_++;
}

std::optional<GoBackNSender::Out> GoBackNSender::next() {
  if (send_pos_ >= next_seq_) return std::nullopt;
  const LinkSeq seq = send_pos_;
  const Entry& e = ring_[seq & mask_];
  const bool replay = seq < sent_high_;
  ++send_pos_;
  sent_high_ = std::max(sent_high_, send_pos_);
  if (replay) ++replays_;
  return Out{seq, e.handle, replay, e.cost};
}

GoBackNReceiver::Verdict GoBackNReceiver::on_packet(LinkSeq seq, bool crc_ok) {
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

std::optional<LinkSeq> GoBackNReceiver::take_nak() {
  if (!nak_due_) return std::nullopt;
  nak_due_ = false;
  nak_sent_ = true;
  return expected_;
}

std::optional<LinkSeq> GoBackNReceiver::take_ack(bool force) {
  if (expected_ == 0 || (!ack_due_ && !(force && unacked_ > 0))) return std::nullopt;
  ack_due_ = false;
  unacked_ = 0;
  return expected_ - 1;
}

}  // namespace fabric
