#pragma once
// What the receiving end of a link with soft errors does before a message
// reaches its port's owner (mechanism 10), owned by the RxPort:
// - draws whether the message arrived with a bad CRC (ErrorInjector);
// - with link retry, passes only the next expected link sequence number
//   with a good CRC, in order and exactly once, and has the reverse link's
//   sender (RetrySender) send the link NAKs and coalesced link ACKs; link
//   ACKs and NAKs that arrive go to that sender too, and so does a link ACK
//   riding on a message (link.retry.ack_piggyback), unless its CRC is bad;
// - without link retry, drops a corrupted data message (told to the
//   observer, which records it with reason `link`): the end-to-end layer above recovers it. Its downstream slot was
//   never taken, so its hop-by-hop credit goes straight back upstream.
//
// Without link retry only data messages and end-to-end ACKs are corrupted:
// the spec's end-to-end layer recovers copies and their ACKs, not requests,
// grants, credits, PAUSE or CNMs. The link-level fields of a message
// (credits, link sequence number) are taken as covered by their own check.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "model/link/error_injector.h"
#include "model/link/go_back_n.h"
#include "model/link/link_observer.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

class TxPort;

class alignas(64) LinkReceiver {
 public:
  // `injector` may be null (no errors); `retry` says whether the sender
  // numbers its messages; `ack_every` coalesces link ACKs.
  // `observer` (may be null) hears of each drop.
  LinkReceiver(std::unique_ptr<ErrorInjector> injector, bool retry, uint32_t ack_every, LinkObserver* observer,
               std::string link, PortId port);

  // Whether the message goes on to the port's owner. If not, it has been
  // consumed (released) here.
  bool admit(Payload& message, TxPort* reverse, Picos now);

  uint64_t corrupted() const { return corrupted_; }
  uint64_t discarded() const { return discarded_; }  // dropped for order: replays will bring them
  uint64_t dropped() const { return dropped_; }      // without retry: frames and packets dropped (reason link)
  const std::string& link() const { return link_; }

 private:
  bool corruptible(const Payload& message) const;
  bool admit_in_order(Payload& message, bool bad, TxPort& reverse, Picos now);
  void drop_corrupted(Payload& message, TxPort* reverse, Picos now);
  static bool is_link_ack_or_nak(const Payload& message);

  // What an arrival reads, in the first cache line.
  std::unique_ptr<ErrorInjector> injector_;
  std::optional<GoBackNReceiver> window_;  // with link retry
  LinkObserver* observer_;
  std::string link_;
  PortId port_;                // where a drop is recorded: the receiving port
  uint64_t injector_seq_ = 0;  // without retry: messages drawn for, the scripted numbers' sense
  uint64_t corrupted_ = 0, discarded_ = 0, dropped_ = 0;
};

}  // namespace fabric
