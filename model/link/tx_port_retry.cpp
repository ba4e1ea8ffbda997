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

bool TxPort::has_room() const { return retry_->has_room(max_message_bytes_); }

Payload* TxPort::take_link_level(Picos now, Picos& retry_at) {
  retry_->check_timeout(now);
  Payload* urgent = retry_->take_urgent(now);
  if (!urgent) retry_at = std::min(retry_at, retry_->next_deadline());
  return urgent;
}

Payload& TxPort::admit_for_retry(Payload& message, Picos now) { return retry_->admit(message, now); }

void TxPort::on_link_ack(uint32_t cumulative, Picos now) {
  retry_->on_ack(cumulative, now);
  kick();  // the buffer may have room again
}

void TxPort::on_link_nak(uint32_t first_missing, Picos now) {
  retry_->on_nak(first_missing, now);
  kick();
}

void TxPort::owe_link_ack(uint32_t cumulative, bool now_due, Picos now) {
  retry_->owe_ack(cumulative, now_due, now);
  if (now_due) {
    kick();
  } else {
    schedule(std::max(free_at_, retry_->next_deadline()));
  }
}

void TxPort::owe_link_nak(uint32_t first_missing) {
  retry_->owe_nak(first_missing);
  kick();
}

}  // namespace fabric
