#pragma once
// The sending end of a link. Per free slot of the link it sends, in order of
// precedence: the oldest ready control message, then a data message pulled
// from its owner if the downstream buffer has a credit for it. Link credits
// owed upstream ride on that message (coalesced, in its header); a credit
// message of its own goes only when there is nothing else to send and a
// batch of credits is owed or the oldest has waited the credit delay. It wakes only when the link frees
// up or a queued message becomes ready: no clock ticks on an idle port.
#include <limits>
#include <memory>
#include <systemc>

#include "model/core/circular_queue.h"
#include "model/core/event_queue.h"
#include "model/protocol/fabric_protocol.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

class RetrySender;

class TxSource {
 public:
  struct Pull {
    Payload* payload = nullptr;  // the message to send now, owned by the caller from here
    Picos retry_at = kNever;     // nothing now: ask again at this time (kNever: wait for kick())
  };
  virtual ~TxSource() = default;
  // The next data message, if one is ready to start by `not_after` (its
  // MessageInfo::ready_at); the port sends it with the remaining pipeline
  // latency as annotated delay instead of waking again to send it.
  virtual Pull next_data(int tx_index, Picos not_after) = 0;
  // The last message sent on this port has left the wire.
  virtual void transmission_done(int tx_index) {}
  // The port will ask for data soon: prefetch what next_data() reads.
  virtual void prefetch_next(int /*tx_index*/) const {}
  // After a send: whether the port must wake when the wire frees up, for
  // transmission_done() or because data may be waiting. False lets an idle
  // port sleep until kick() (which then wakes it when the wire is free).
  virtual bool wants_wake_after_send(int /*tx_index*/) const { return true; }
};

struct TxPortParams;
// An Ethernet port: no credit flow control, and each control frame (a
// PAUSE) a frame of its own.
TxPortParams ethernet_tx_params();

struct TxPortParams {
  int credits = -1;                 // downstream buffer in messages; -1: no credit flow control
  bool coalesce_control = true;     // merge control messages of the same VOQ while queued
  uint32_t max_request_units = 36;  // a coalesced request never asks for more
  uint32_t control_bytes = 10;      // size of a link credit message
  uint32_t credit_batch = 1;        // owed credits that justify a credit message of their own
  Picos credit_delay = 0;           // longest an owed credit waits to ride on another message
};

// What a wake of the port touches, in the cache lines that start with the
// scheduler's view of the port (a base placed before sc_module, see TxPort):
// the first line on every wake, the second when control messages or credits
// are waiting or a wake is scheduled, the third (parameters, link-level
// retry) on credits and sends.
struct TxPortHotState {
  tlm::tlm_fw_transport_if<FabricProtocol>* link_ = nullptr;  // what `out` is bound to
  const void* far_end_ = nullptr;                             // what the link delivers to: prefetched before a send
  Picos free_at_ = 0;
  Picos wake_at_ = 0;
  bool wake_pending_ = false;
  bool in_transmit_ = false;
  bool kicked_in_transmit_ = false;
  bool sent_since_wake_ = false;
  int credits_ = -1;
  uint32_t credits_owed_ = 0;
  int index_ = 0;
  TxSource* source_ = nullptr;
  CircularQueue<Payload*, 4> control_;
  EventQueue* events_ = nullptr;
  Picos owed_since_ = 0;
  RetrySender* retry_ = nullptr;    // link-level retry; null on a link without it
  uint32_t max_message_bytes_ = 0;  // the largest message the owner sends: the retry buffer's unit of room
  // The retry timeout has its own timer, armed while messages are
  // outstanding and moved on lazily as ACKs come (one wake per timeout, not
  // one per message); an owed link ACK's deadline has another. Neither
  // moves the port's own wake, whose stale entries would cost events.
  bool retry_timer_armed_ = false;
  bool ack_timer_armed_ = false;
  bool far_end_is_port_ = false;  // far_end_ is an RxPort: a send's arrival is prefetched a stage later
  TxPortParams params_;
  PayloadPool* pool_ = nullptr;
};

// Base order is deliberate: the scheduler's interface and the hot state come
// first, before the 232-byte sc_module.
class alignas(64) TxPort : public EventQueue::Client,
                           private TxPortHotState,
                           public sc_core::sc_module,
                           public FabricSender {
 public:
  TxPort(sc_core::sc_module_name name, TxSource& source, int index, PayloadPool& pool, const TxPortParams& params,
         EventQueue& events);

  void send_control(Payload& message);  // takes ownership
  void return_credits(uint32_t n);      // owed to the upstream sender
  void add_credits(uint32_t n);         // received from downstream
  void kick();                          // the owner has new data

  // Link-level retry on this link (the port owns the sender half; see
  // RetrySender). The port also carries the link ACKs and NAKs of the
  // reverse link's receiver.
  void enable_retry(std::unique_ptr<RetrySender> retry, uint32_t max_message_bytes);
  const RetrySender* retry() const { return retry_; }
  void on_link_ack(uint32_t cumulative, Picos now);
  void on_carried_link_ack(uint16_t low_bits, Picos now);  // one that rode on a message (MessageInfo::link_ack)
  void on_link_nak(uint32_t first_missing, Picos now);
  void owe_link_ack(uint32_t cumulative, bool now_due, Picos now);
  void owe_link_nak(uint32_t first_missing);
  ~TxPort() override;

  // Brings the state a credit or a kick touches into the cache.
  void prefetch_state() const {
    const char* self = reinterpret_cast<const char*>(static_cast<const EventQueue::Client*>(this));
    __builtin_prefetch(self);
    __builtin_prefetch(self + 64);
    __builtin_prefetch(self + 128);
  }
  // Then, once that is in: the link and what it delivers to, for a send.
  void prefetch_path() const {
    __builtin_prefetch(link_);
    // The link's second line: its line-rate window (Link), touched twice in
    // a window of messages, a miss each time without this.
    __builtin_prefetch(reinterpret_cast<const char*>(link_) + 64);
    __builtin_prefetch(far_end_);
  }
  // A stage later (the third line in): link-level retry's sender, which
  // every send and every link ACK or NAK arriving for this link touches.
  void prefetch_retry() const {
    if (!retry_) return;
    __builtin_prefetch(retry_);
    __builtin_prefetch(reinterpret_cast<const char*>(retry_) + 64);
  }
  // ... and, for a link ACK that arrived for this link, what it releases.
  void prefetch_link_ack(uint32_t cumulative) const;
  int credits() const { return credits_; }

 private:
  void on_wake(void*) override;
  void prefetch(const void*) const override;
  void prefetch_deep(const void*) const override;
  void end_of_elaboration() override;
  void transmit_now();
  Payload* take_ready_control(Picos now, Picos& retry_at);
  Payload* standalone_credit();
  void carry_credits(Payload& message);  // owed credits onto a message about to leave
  void schedule(Picos at);
  void send(Payload& message, Picos start);
  // Link-level retry (tx_port_retry.cpp).
  bool has_room() const;
  template <class Acknowledge>
  void acknowledged(Acknowledge&& acknowledge);  // a link ACK arrived: the sender releases, the port may send
  Payload* take_link_level(Picos now);
  Payload& admit_for_retry(Payload& message, Picos now);
  void on_retry_timer(void* which);  // see retry_timer_armed_

  std::unique_ptr<RetrySender> retry_sender_;

 public:
  FabricInitiatorSocket out;
};

}  // namespace fabric
