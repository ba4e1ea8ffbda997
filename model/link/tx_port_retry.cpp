// TxPort: its part in link-level retry (mechanism 10). The algorithm is the
// RetrySender's; the port decides when it may send.
#include "model/core/sim_time.h"
#include "model/link/retry_sender.h"
#include "model/link/tx_port.h"

namespace fabric {

TxPort::~TxPort() = default;

void TxPort::enable_retry(std::unique_ptr<RetrySender> retry, uint32_t max_message_bytes) {
  retry_sender_ = std::move(retry);
  retry_ = retry_sender_.get();
  max_message_bytes_ = max_message_bytes;
}

void TxPort::prefetch_link_ack(uint32_t cumulative) const {
  if (retry_) retry_->prefetch_acked(cumulative);
}

bool TxPort::has_room() const { return retry_->has_room(max_message_bytes_); }

Payload* TxPort::take_link_level(Picos now) { return retry_->take_urgent(now); }

Payload& TxPort::admit_for_retry(Payload& message, Picos now) {
  Payload& copy = retry_->admit(message, now);
  if (!retry_timer_armed_) {
    retry_timer_armed_ = true;
    events_->schedule(retry_->timeout_at(), *this, this);
  }
  return copy;
}

void TxPort::on_retry_timer(void* which) {
  if (which == &ack_timer_armed_) {  // an owed link ACK's deadline
    const Picos due = retry_->next_deadline();
    ack_timer_armed_ = due != kNever && due > now_ps();  // a later ACK is owed now: wait for its deadline
    if (ack_timer_armed_) {
      events_->schedule(due, *this, &ack_timer_armed_);
    } else {
      kick();
    }
    return;
  }
  const Picos now = now_ps();
  if (retry_->check_timeout(now)) kick();  // replays start
  const Picos at = retry_->timeout_at();
  retry_timer_armed_ = at != kNever;
  if (retry_timer_armed_) events_->schedule(at, *this, this);
}

template <class Acknowledge>
void TxPort::acknowledged(Acknowledge&& acknowledge) {
  const bool was_full = !has_room();
  acknowledge(*retry_);
  if (was_full) kick();  // room again for what waits
}

void TxPort::on_link_ack(uint32_t cumulative, Picos now) {
  acknowledged([&](RetrySender& r) { r.on_ack(cumulative, now); });
}

void TxPort::on_carried_link_ack(uint16_t low_bits, Picos now) {
  acknowledged([&](RetrySender& r) { r.on_carried_ack(low_bits, now); });
}

void TxPort::on_link_nak(uint32_t first_missing, Picos now) {
  retry_->on_nak(first_missing, now);
  kick();
}

void TxPort::owe_link_ack(uint32_t cumulative, bool now_due, Picos now) {
  const bool newly_owed = retry_->owe_ack(cumulative, now_due, now);
  if (now_due) {
    kick();
  } else if (newly_owed && !ack_timer_armed_) {  // later ones share its deadline
    ack_timer_armed_ = true;
    events_->schedule(retry_->next_deadline(), *this, &ack_timer_armed_);
  }
}

void TxPort::owe_link_nak(uint32_t first_missing) {
  retry_->owe_nak(first_missing);
  kick();
}

}  // namespace fabric
