#pragma once
// The egress side of a leaf's ports, in time: the crossbar output of each
// port (36 B per cycle into its egress buffer), the port's LeafEgress
// (credit arbiters, reassembly, fair service), forwarding of complete
// copies to the CNA (user ports) or to the surrogate loop, and the grants
// and ACKs it sends back to the source ports. Requests and cancels from the
// sources arrive here. A duplicate packet (an end-to-end retransmission) of
// a copy already forwarded draws its cumulative ACK again.
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "model/leaf/control_path.h"
#include "model/leaf/leaf_egress.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_params.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

class SurrogateLoop;
class LeafCongestionPoints;

class EgressUnit {
 public:
  struct Wiring {
    ControlPath& control;
    SurrogateLoop& loop;
    LeafCongestionPoints& congestion;
  };
  EgressUnit(const LeafLayout& layout, const LeafParams& params, const LeafParams& surrogate_params, PayloadPool& pool,
             LeafLinks& links, const Wiring& wiring);

  // A packet for port k reaches the crossbar output at `arrival`.
  void enter(int k, Payload& packet, Picos arrival);
  void on_request(const ControlMessage& request);
  void on_cancel(const ControlMessage& cancel);
  // User port k's link asks for the next frame to send to its CNA.
  TxSource::Pull next_frame(int k, Picos now);
  // ... and that frame (or a PAUSE frame) has left.
  void transmission_done(int k);
  // Port k's copy has left the egress buffer (to the CNA, or handed back by
  // the surrogate): its units go back to the arbiter, the ACK to its source.
  void copy_left(int k, const ForwardedCopy& copy);

  LeafEgress& port(int k) { return ports_[k]; }
  const LeafEgress& port(int k) const { return ports_[k]; }
  uint64_t copies_held() const;
  // A packet for port k arrives soon: what enter() touches.
  void prefetch(int k) const {
    __builtin_prefetch(&ports_[k]);
    __builtin_prefetch(&output_free_at_[k]);
  }

 private:
  void run_arbiter(int k);

  const LeafLayout& layout_;
  const LeafParams& params_;
  PayloadPool& pool_;
  LeafLinks& links_;
  Wiring wiring_;
  std::deque<LeafEgress> ports_;                          // deque: elements never move
  std::vector<Picos> output_free_at_;                     // each port's crossbar output
  std::vector<std::optional<ForwardedCopy>> forwarding_;  // the copy on its way to each CNA
  std::vector<EgressGrant> grants_;
};

}  // namespace fabric
