#pragma once
// Nothing faster than its flight: the earliest a copy can reach its
// destination CNA after its frame was created, at zero load, from the
// mechanisms it cannot skip. The source CNA serializes the frame and the
// cable carries it; a copy to another leaf crosses two leaf-spine cables;
// the egress reassembles the whole copy before it serializes it to the CNA
// (fabric.md, Egress side), which its cable carries. Sent on its own grant
// (requests and grants per copy), a copy to another leaf also waits for its
// request and grant to cross those cables, from the frame's first byte at
// the leaf. Pipelines, queues and surrogate levels only add to it, so they
// are left out: it is a bound, never a model of the latency.
#include <cstdint>
#include <string>

#include "model/core/geometry.h"
#include "model/core/ids.h"

namespace fabric {

struct DeliveryBoundParams {
  double cna_gbps = 100;             // the CNA links' rate
  uint32_t cna_overhead_bytes = 20;  // preamble, delimiter and gap per frame
  Picos cna_flight = 0;              // a CNA cable's propagation
  Picos fabric_flight = 0;           // a leaf-spine cable's propagation
  Geometry geometry;                 // which leaf a port is on
  bool own_grant = true;             // each copy is sent on its own grant (leaf.voq.dropped_copy_credit per_copy)
};

class DeliveryBound {
 public:
  explicit DeliveryBound(const DeliveryBoundParams& p) : p_(p) {}

  // The least latency (delivery at the destination CNA minus creation at
  // the source) of a copy of a `bytes` frame from `src` to `dst`, after
  // `levels` surrogate ports.
  Picos minimum(PortId src, PortId dst, uint32_t bytes, int levels) const;
  // The same, in words: the terms of the sum.
  std::string describe(PortId src, PortId dst, uint32_t bytes, int levels) const;

 private:
  bool remote(PortId src, PortId dst) const { return p_.geometry.leaf_of(src) != p_.geometry.leaf_of(dst); }
  Picos frame_time(uint32_t bytes) const {
    return static_cast<Picos>((bytes + p_.cna_overhead_bytes) * 8000.0 / p_.cna_gbps);
  }
  // The request and the grant across the fabric: sent on its own grant,
  // a source's copy to another leaf (surrogates' copies are not counted).
  bool waits_for_grant(PortId src, PortId dst, int levels) const {
    return p_.own_grant && levels == 0 && remote(src, dst);
  }

  DeliveryBoundParams p_;
};

}  // namespace fabric
