#include "model/link/tx_port.h"

#include "model/link/link.h"
#include "model/link/retry_sender.h"
#include "model/link/rx_port.h"

#include <cstddef>

#include "model/core/sim_time.h"
#include "model/invariants/invariant_broken.h"

namespace fabric {

using sc_core::SC_PS;
using sc_core::sc_time;

TxPortParams ethernet_tx_params() {
  TxPortParams p;
  p.coalesce_control = false;
  return p;
}

TxPort::TxPort(sc_core::sc_module_name name, TxSource& source, int index, PayloadPool& pool, const TxPortParams& params,
               EventQueue& events)
    : sc_module(name), out("out") {
  pool_ = &pool;
  params_ = params;
  credits_ = params.credits;
  index_ = index;
  source_ = &source;
  events_ = &events;
  static_assert(offsetof(TxPortHotState, control_) + sizeof(void*) <= 64, "the first line holds the wake's state");
  static_assert(sizeof(void*) + offsetof(TxPortHotState, retry_) >= 128, "retry_ starts the third line");
  static_assert(sizeof(TxPortHotState) + sizeof(void*) <= 192, "the hot state spans three cache lines");
  out.bind(*this);
}

void TxPort::end_of_elaboration() {
  link_ = out.get_interface(0);
  if (Link* link = dynamic_cast<Link*>(link_)) {
    const RxPort* port = dynamic_cast<const RxPort*>(link->out.get_interface(0));
    far_end_is_port_ = port != nullptr && static_cast<const void*>(port) == link->far_end();
    far_end_ = link->far_end();
  }
}

void TxPort::prefetch_deep(const void*) const {
  prefetch_retry();
  if (far_end_is_port_) static_cast<const RxPort*>(far_end_)->prefetch_arrival();
}

void TxPort::prefetch(const void*) const {
  const char* self = reinterpret_cast<const char*>(static_cast<const EventQueue::Client*>(this));
  __builtin_prefetch(self + 64);
  __builtin_prefetch(self + 128);
  prefetch_path();
  if (!control_.empty()) prefetch_message(control_.front());
  source_->prefetch_next(index_);
}

void TxPort::send_control(Payload& message) {
  if (params_.coalesce_control) {
    const ControlMessage& incoming = control_of(message);
    // Only a message that has not started on the wire can absorb another.
    for (size_t i = 0; i < control_.size(); ++i) {
      if (try_coalesce(control_of(*control_[i]), incoming, params_.max_request_units)) {
        message.release();
        return;
      }
    }
  }
  control_.push_back(&message);
  kick();
}

void TxPort::return_credits(uint32_t n) {
  if (credits_owed_ == 0) owed_since_ = now_ps();
  credits_owed_ += n;
  kick();
}

void TxPort::add_credits(uint32_t n) {
  if (credits_ < 0) SC_REPORT_FATAL(name(), "credit received on a port without credit flow control");
  credits_ += static_cast<int>(n);
  if (credits_ > params_.credits)
    break_invariant(invariant::kCredits, name(), now_ps(),
                    std::to_string(credits_) + " credits after " + std::to_string(n) + " came back, for " +
                        std::to_string(params_.credits) +
                        " slots of the buffer downstream: a credit returned twice, or for a slot never taken");
  kick();
}

void TxPort::kick() {
  if (in_transmit_) {
    kicked_in_transmit_ = true;
    return;
  }
  const Picos now = now_ps();
  if (now < free_at_) {
    schedule(free_at_);
    return;
  }
  if (wake_pending_ && wake_at_ <= now) return;  // a wake this instant will look anyway
  transmit_now();
}

void TxPort::on_wake(void* item) {
  if (item) {  // the retry or link ACK timer (tx_port_retry.cpp), apart from the port's own wake
    on_retry_timer(item);
    return;
  }
  const Picos now = now_ps();
  if (!wake_pending_ || wake_at_ > now) return;  // superseded by an earlier wake
  wake_pending_ = false;
  if (now < free_at_) {
    schedule(free_at_);
    return;
  }
  if (sent_since_wake_) {
    sent_since_wake_ = false;
    // What the owner does now (a kick, a control message to send) is
    // answered by the transmit_now() below, not within the callback.
    in_transmit_ = true;
    source_->transmission_done(index_);
    in_transmit_ = false;
  }
  transmit_now();
}

Payload* TxPort::standalone_credit() {
  Payload& credit = pool_->acquire(MessageKind::control, params_.control_bytes);
  ControlMessage& c = control_of(credit);
  c.kind = ControlKind::credit;
  c.count = 0;
  c.units = 0;
  return &credit;
}

Payload* TxPort::take_ready_control(Picos now, Picos& retry_at) {
  if (control_.empty()) return nullptr;
  Payload* head = control_.front();
  if (info_of(*head).ready_at <= now) {
    control_.pop_front();
    return head;
  }
  retry_at = std::min(retry_at, info_of(*head).ready_at);
  return nullptr;
}

void TxPort::transmit_now() {
  const Picos now = now_ps();
  in_transmit_ = true;
  for (;;) {
    kicked_in_transmit_ = false;
    Picos retry_at = kNever;
    if (retry_) {  // link ACKs and NAKs, then replays, go first; new messages only with room to keep them
      if (Payload* urgent = take_link_level(now)) {
        send(*urgent, std::max(now, info_of(*urgent).ready_at));
        break;
      }
    }
    const bool room = !retry_ || has_room();
    Payload* message = room ? take_ready_control(now, retry_at) : nullptr;
    if (!message && room && credits_ != 0) {
      // Look ahead into the sender's pipeline only while no control message
      // waits: control must not queue behind data that is not ready yet.
      const Picos not_after = control_.empty() ? kNever : now;
      TxSource::Pull pull = source_->next_data(index_, not_after);
      message = pull.payload;
      if (message) {
        if (credits_ > 0) --credits_;
      } else {
        retry_at = std::min(retry_at, pull.retry_at);
      }
    }
    // Owed credits ride on whatever goes next; alone only if the link would
    // idle and enough are owed, or the oldest has waited long enough.
    if (!message && room && credits_owed_ > 0) {
      const Picos due = owed_since_ + params_.credit_delay;
      if (credits_owed_ >= params_.credit_batch || now >= due) {
        message = standalone_credit();
      } else {
        retry_at = std::min(retry_at, due);
      }
    }
    if (message) {
      carry_credits(*message);
      if (retry_) {
        message = &admit_for_retry(*message, now);
        retry_->carry_ack(*message);
      }
      send(*message, std::max(now, info_of(*message).ready_at));
      break;
    }
    if (retry_ && retry_->acks_ride()) {  // an ACK that could have ridden, due and alone
      if (Payload* ack = retry_->take_due_ack(now)) {
        send(*ack, now);
        break;
      }
    }
    if (!kicked_in_transmit_) {
      if (retry_at != kNever) schedule(retry_at);
      break;
    }
  }
  in_transmit_ = false;
}

void TxPort::carry_credits(Payload& message) {
  MessageInfo& info = info_of(message);
  const uint32_t carried = std::min(credits_owed_, kMaxCarriedCredits - info.credits);
  info.credits = static_cast<uint16_t>(info.credits + carried);
  credits_owed_ -= carried;
}

void TxPort::send(Payload& message, Picos start) {
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  const Picos now = now_ps();
  sc_time delay = start == now ? sc_core::SC_ZERO_TIME : from_ps(start - now);
  link_->nb_transport_fw(message, phase, delay);
  free_at_ = now + to_ps(delay);
  sent_since_wake_ = true;
  if (!control_.empty() || credits_owed_ > 0 || source_->wants_wake_after_send(index_)) {
    schedule(free_at_);
  } else if (retry_ && retry_->urgent(free_at_)) {  // a replay, NAK or link ACK due
    schedule(free_at_);
  }
}

void TxPort::schedule(Picos at) {
  if (wake_pending_ && wake_at_ <= at) return;
  wake_at_ = at;
  wake_pending_ = true;
  events_->schedule(at, *this);
}

}  // namespace fabric
