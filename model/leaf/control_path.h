#pragma once
// How a leaf's units send control messages (requests, grants, cancels,
// ACKs, CNMs from egress congestion points): a message for a port of this
// leaf crosses the crossbar, one for another leaf goes out on the uplinks in
// turn, one leaf traversal later (control messages need no credits).
// Requests, grants and ACKs of a VOQ are coalesced first (HoldoffBatcher,
// leaf.control.*).
#include <cstdint>

#include "model/core/sim_time.h"
#include "model/leaf/holdoff_batcher.h"
#include "model/leaf/internal_path.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_params.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

class ControlPath final : public EventQueue::Client {
 public:
  ControlPath(const LeafLayout& layout, const LeafParams& params, PayloadPool& pool, InternalPath& internal,
              LeafLinks& links, EventQueue& events)
      : layout_(layout),
        params_(params),
        pool_(pool),
        internal_(internal),
        links_(links),
        events_(events),
        batcher_(to_ps(params.control_holdoff), params.control_max_batch) {}

  // A 10 B control message from port `from` to port `to` (any leaf).
  void send(ControlKind kind, PortId from, PortId to, Vl vl, uint32_t units, uint32_t count, CopyRange copies = {},
            bool withdraw = false);
  // A control message already built, to the leaf its to_leaf names.
  void route(Payload& message);
  // A 64 B control frame (PAUSE, CNM) for the CNA of user port `port`, of
  // `priority`; the caller fills in what its kind needs and sends it.
  Payload& cna_frame(ControlKind kind, PortId port, uint8_t priority);
  // Control messages that rode in another of their VOQ (coalesced).
  uint64_t merged() const { return batcher_.merged(); }

 private:
  void on_wake(void* item) override;  // a held batch is due

  const LeafLayout& layout_;
  const LeafParams& params_;
  PayloadPool& pool_;
  InternalPath& internal_;
  LeafLinks& links_;
  EventQueue& events_;
  size_t next_uplink_ = 0;  // round robin over the uplinks
  HoldoffBatcher<Payload*> batcher_;
};

}  // namespace fabric
