#pragma once
// Where a leaf's packets go once cut (fabric injection): a packet for a
// port of this leaf takes a one-to-one crossbar link (the internal path),
// one for another leaf is sprayed over the uplink queues (round robin or
// least loaded: SprayPolicy), each a few packets deep in front of its
// leaf-spine link. A full set of uplink queues blocks the crossbar input;
// a queue that drains wakes it.
#include <cstdint>
#include <memory>
#include <vector>

#include "model/core/circular_queue.h"
#include "model/leaf/internal_path.h"
#include "model/leaf/leaf_ingress.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_params.h"
#include "model/leaf/spray_policy.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

class Crossbar;

class FabricInjection {
 public:
  FabricInjection(const LeafLayout& layout, const LeafParams& params, PayloadPool& pool, InternalPath& internal,
                  LeafLinks& links, Crossbar& crossbar);

  // Where a packet of q goes: `uplink` is the uplink index, -1 for this
  // leaf; false when every uplink queue is full (the caller waits for
  // Crossbar::on_uplink_room, called when a queue drains).
  bool route(const Voq& q, int& uplink);
  // Packet `segment` of a copy of f from port k to q's target, taking
  // `transfer` to cross the crossbar, to the place route() chose.
  void launch(int k, const Voq& q, const StoredFrame& f, uint16_t segment, uint32_t copy_seq, int uplink,
              Picos transfer);

  // The uplink's link asks for its next packet (TxSource::next_data).
  TxSource::Pull next_packet(int s, Picos not_after);
  bool has_packets(int s) const { return !queues_[s].empty(); }
  void prefetch_next(int s) const {
    const Queue& q = queues_[s];
    __builtin_prefetch(&q);
    if (!q.empty()) prefetch_message(q.front());
  }

 private:
  using Queue = CircularQueue<Payload*, 4>;

  const LeafLayout& layout_;
  const LeafParams& params_;
  PayloadPool& pool_;
  InternalPath& internal_;
  LeafLinks& links_;
  Crossbar& crossbar_;
  std::unique_ptr<SprayPolicy> spray_;
  std::unique_ptr<Queue[]> queues_;
  std::vector<int> depth_;        // packets in each uplink queue
  bool someone_blocked_ = false;  // a route() failed since a queue last drained
};

}  // namespace fabric
