#pragma once
// Pools the fabric's messages (Payload, two cache lines each): sending a
// message allocates nothing once the pool is warm.
#include <memory>
#include <vector>

#include "model/core/worker.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

class PayloadPool final {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool();

  // A payload with reference count 1; the consumer calls release().
  Payload& acquire(MessageKind kind, uint32_t wire_bytes);
  // A new payload carrying the same message (link-level retry keeps the
  // original and sends copies).
  Payload& clone(const Payload& original);
  void free(Payload* payload);  // called by Payload::release()

  // Releases that may wait: a link's retry buffer lets go of the messages a
  // link ACK covers, long after they left, so each release is a cache miss.
  // Once defer_releases() is on, release_later() only notes the message,
  // and release_deferred() (the scheduler's end of a time window) releases
  // them all in one pass whose misses overlap. Off (the default), it
  // releases at once.
  void defer_releases(bool on) { deferring_ = on; }
  void release_later(Payload& payload) {
    if (deferring_) {
      shelves_[Worker::index()].deferred.push_back(&payload);
    } else {
      payload.release();
    }
  }
  // On the SystemC thread, with no worker serving: each worker's deferred
  // releases go back to its own free list; then the free lists are evened
  // out (a worker that frees more than it takes would hoard them).
  void release_deferred();

  size_t allocated() const;
  size_t in_use() const;

 private:
  // Messages are allocated in blocks of this many (line-aligned, as Payload is).
  static constexpr size_t kBlock = 256;
  // Each worker thread (see Worker) acquires from and frees to a shelf of
  // its own: partitions served in parallel never share one.
  struct alignas(64) Shelf {
    std::vector<std::unique_ptr<Payload[]>> blocks;
    size_t allocated = 0;
    std::vector<Payload*> free;
    std::vector<Payload*> deferred;
  };
  void release_shelf(std::vector<Payload*>& deferred);
  void even_out();
  Shelf shelves_[Worker::kMax];
  bool deferring_ = false;
};

}  // namespace fabric
