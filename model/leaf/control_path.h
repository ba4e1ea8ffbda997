#pragma once
// How a leaf's units send control messages (requests, grants, cancels,
// ACKs, CNMs from egress congestion points): a message for a port of this
// leaf rides the internal path, one for another leaf goes out on the
// uplinks in turn (control messages need no credits). Either way it is due
// one leaf traversal later.
#include <cstdint>

#include "model/leaf/internal_path.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_params.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

class ControlPath {
 public:
  ControlPath(const LeafLayout& layout, const LeafParams& params, PayloadPool& pool, InternalPath& internal,
              LeafLinks& links)
      : layout_(layout), params_(params), pool_(pool), internal_(internal), links_(links) {}

  // A 10 B control message from port `from` to port `to` (any leaf).
  void send(ControlKind kind, PortId from, PortId to, Vl vl, uint32_t units, uint32_t count);
  // A control message already built, to the leaf its to_leaf names.
  void route(Payload& message);
  // A 64 B control frame (PAUSE, CNM) for the CNA of user port `port`, of
  // `priority`; the caller fills in what its kind needs and sends it.
  Payload& cna_frame(ControlKind kind, PortId port, uint8_t priority);

 private:
  const LeafLayout& layout_;
  const LeafParams& params_;
  PayloadPool& pool_;
  InternalPath& internal_;
  LeafLinks& links_;
  size_t next_uplink_ = 0;  // round robin over the uplinks
};

}  // namespace fabric
