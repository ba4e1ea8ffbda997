#pragma once
// Pools transactions: each payload carries all four fabric extensions for its
// whole life (see PooledPayload), so sending a message allocates nothing once
// the pool is warm.
#include <memory>
#include <vector>

#include "model/protocol/fabric_protocol.h"

namespace fabric {

class PayloadPool final : public tlm::tlm_mm_interface {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override;

  // A payload with reference count 1; the consumer calls release().
  Payload& acquire(MessageKind kind, uint32_t wire_bytes);
  // A new payload carrying the same message (link-level retry keeps the
  // original and sends copies).
  Payload& clone(const Payload& original);
  void free(Payload* payload) override;  // called by Payload::release()

  // Releases that may wait: a link's retry buffer lets go of the messages a
  // link ACK covers, long after they left, so each release is a cache miss.
  // Once defer_releases() is on, release_later() only notes the message,
  // and release_deferred() (the scheduler's end of a time window) releases
  // them all in one pass whose misses overlap. Off (the default), it
  // releases at once.
  void defer_releases(bool on) { deferring_ = on; }
  void release_later(Payload& payload) {
    if (deferring_) {
      deferred_.push_back(&payload);
    } else {
      payload.release();
    }
  }
  void release_deferred();

  size_t allocated() const { return all_.size(); }
  size_t in_use() const { return all_.size() - free_.size(); }

 private:
  // A payload 8 bytes into a line-aligned block: the transaction's last
  // fields (memory manager, reference count; 120 bytes in) then start a
  // cache line, followed by the message info and the packet.
  struct alignas(64) Slot {
    unsigned char lead[8];
    PooledPayload payload;
    explicit Slot(tlm::tlm_mm_interface* mm) : payload(mm) {}
  };
  std::vector<std::unique_ptr<Slot>> all_;
  std::vector<Payload*> free_;
  std::vector<Payload*> deferred_;
  bool deferring_ = false;
};

}  // namespace fabric
