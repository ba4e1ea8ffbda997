#include "model/link/link_receiver.h"

#include "model/link/tx_port.h"

namespace fabric {

LinkReceiver::LinkReceiver(std::unique_ptr<ErrorInjector> injector, bool retry, uint32_t ack_every,
                           LinkObserver* observer, std::string link, PortId port)
    : injector_(std::move(injector)), observer_(observer), link_(std::move(link)), port_(port) {
  if (retry) window_.emplace(ack_every);
}

bool LinkReceiver::corruptible(const Payload& message) const {
  const MessageInfo& info = info_of(message);
  if (window_ || info.kind != MessageKind::control) return true;
  return control_of(message).kind == ControlKind::ack;
}

bool LinkReceiver::is_link_ack_or_nak(const Payload& message) {
  if (info_of(message).kind != MessageKind::control) return false;
  const ControlKind kind = control_of(message).kind;
  return kind == ControlKind::link_ack || kind == ControlKind::link_nak;
}

bool LinkReceiver::admit(Payload& message, TxPort* reverse, Picos now) {
  MessageInfo& info = info_of(message);
  bool bad = false;
  if (injector_ && corruptible(message)) {
    const uint64_t seq = window_ ? info.link_seq : injector_seq_++;
    // On a retry link, link ACKs and NAKs carry no sequence number of their
    // own: a scripted error names a sequenced message, never one of them.
    const bool scripted_may_hit = !info.replay && !(window_ && is_link_ack_or_nak(message));
    bad = injector_->corrupt(seq, info.wire_bytes, !scripted_may_hit);
  }
  if (bad) ++corrupted_;        // (the counters' line is touched only then)
  if (info.carries_link_ack) {  // a link ACK for the reverse link rode on it (link.retry.ack_piggyback)
    info.carries_link_ack = false;
    if (window_ && reverse && !bad) reverse->on_carried_link_ack(info.link_ack, now);
  }
  if (is_link_ack_or_nak(message)) {
    if (!bad && reverse) {
      if (control_of(message).kind == ControlKind::link_ack)
        reverse->on_link_ack(control_of(message).units, now);
      else
        reverse->on_link_nak(control_of(message).units, now);
    }
    message.release();
    return false;
  }
  if (window_ && reverse) return admit_in_order(message, bad, *reverse, now);
  if (!bad) return true;
  drop_corrupted(message, reverse, now);
  return false;
}

bool LinkReceiver::admit_in_order(Payload& message, bool bad, TxPort& reverse, Picos now) {
  const LinkSeq expected = window_->expected();
  const LinkSeq seq = expected + static_cast<int32_t>(info_of(message).link_seq - static_cast<uint32_t>(expected));
  const GoBackNReceiver::Verdict verdict = window_->on_packet(seq, !bad);
  if (const auto nak = window_->take_nak()) reverse.owe_link_nak(static_cast<uint32_t>(*nak));
  if (verdict == GoBackNReceiver::Verdict::accept || verdict == GoBackNReceiver::Verdict::drop_duplicate) {
    const auto due = window_->take_ack();
    reverse.owe_link_ack(static_cast<uint32_t>(window_->expected() - 1), due.has_value(), now);
  }
  if (verdict == GoBackNReceiver::Verdict::accept) return true;
  discarded_ += !bad;
  message.release();
  return false;
}

void LinkReceiver::drop_corrupted(Payload& message, TxPort* reverse, Picos now) {
  const MessageInfo& info = info_of(message);
  if (info.kind == MessageKind::packet) {
    const FabricPacket& p = packet_of(message);
    if (observer_) observer_->on_drop(p.frame, p.flow, p.src, static_cast<int64_t>(raw(p.target)), now);
    ++dropped_;
    if (reverse) reverse->return_credits(1);  // it never took its downstream slot
  } else if (info.kind == MessageKind::frame) {
    const EthernetFrame& f = frame_of(message);
    if (observer_)
      observer_->on_drop(f.frame, f.flow, port_, raw(port_) == raw(f.src) ? -1 : static_cast<int64_t>(raw(port_)), now);
    ++dropped_;
  }
  // The credits it carried are link-level fields: they count (see the header).
  if (info.credits > 0 && reverse) reverse->add_credits(info.credits);
  message.release();
}

}  // namespace fabric
