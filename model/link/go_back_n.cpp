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

}  // namespace fabric
