#include "model/link/go_back_n.h"

#include <algorithm>
#include <stdexcept>

namespace fabric {

GoBackNSender::GoBackNSender(size_t capacity) : capacity_(capacity) {
  if (capacity_ < 1) throw std::invalid_argument("go-back-N: a retry buffer of at least one packet");
}

LinkSeq GoBackNSender::add(uint64_t handle, size_t cost) {
  if (!can_send(cost)) throw std::logic_error("go-back-N: retry buffer full");
  buffer_.push_back({next_seq_, handle, cost});
  held_ += cost;
  return next_seq_++;
}

std::optional<GoBackNSender::Out> GoBackNSender::next() {
  if (send_pos_ >= next_seq_) return std::nullopt;
  const Entry& e = buffer_[send_pos_ - base_];
  const bool replay = e.seq < sent_high_;
  ++send_pos_;
  sent_high_ = std::max(sent_high_, send_pos_);
  if (replay) ++replays_;
  return Out{e.seq, e.handle, replay};
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
