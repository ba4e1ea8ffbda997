#pragma once
// A leaf switch: the SystemC shell that composes the leaf's units and wires
// them (see model/leaf/README.md for the units and the messages between
// them). It owns the ends of the leaf's links and is their sink and source:
// frames from a CNA go to the ingress unit, packets from a spine to the
// egress unit, control messages to the unit they address; a link asking
// for data is served by the egress unit (towards a CNA) or by fabric
// injection (towards a spine).
//
// Links: rx/tx index k < user_ports_per_leaf faces the CNA of user port k;
// index user_ports_per_leaf + s faces spine s.
#include <ostream>
#include <vector>

#include "model/core/geometry.h"
#include "model/leaf/congestion_points.h"
#include "model/leaf/control_path.h"
#include "model/leaf/crossbar.h"
#include "model/leaf/egress_unit.h"
#include "model/leaf/fabric_injection.h"
#include "model/leaf/fdb.h"
#include "model/leaf/ingress_unit.h"
#include "model/leaf/internal_path.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_observer.h"
#include "model/leaf/leaf_params.h"
#include "model/leaf/multicast_engine.h"
#include "model/leaf/retransmit_unit.h"
#include "model/leaf/surrogate_loop.h"
#include "model/link/link_params.h"
#include "model/multicast/mcbc_table.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

struct LeafContext {
  const LeafParams& params;
  const Geometry& geometry;
  const Fdb& fdb;
  const McbcTable& mcbc;
  PayloadPool& pool;
  const std::vector<int>& spine_buffer_packets;  // credits of uplink s: spine s's input buffer
  CreditReturnParams credit_return;
  EventQueue& events;
  uint64_t seed;  // random header orders and RED, per port
};

// How the sending end of a leaf-spine link behaves, in either direction:
// `credits` is the buffer at its far end.
TxPortParams fabric_link_tx(const LeafParams& leaf, const CreditReturnParams& credit_return, int credits);

class Leaf : public sc_core::sc_module, public RxSink, public TxSource {
 public:
  Leaf(sc_core::sc_module_name name, LeafId id, const LeafContext& context);
  ~Leaf() override;

  RxPort& user_rx(int k) { return *links_.rx[k]; }
  TxPort& user_tx(int k) { return links_.user_tx(k); }
  RxPort& downlink_rx(int s) { return *links_.rx[layout_.users + s]; }
  TxPort& uplink_tx(int s) { return links_.uplink_tx(s); }

  // RxSink and TxSource, for the link ends.
  void receive(int rx_index, Payload& payload) override;
  void prefetch_receive(int rx_index, const Payload& payload) const override;
  void prefetch_receive_deep(int rx_index, const Payload& payload) const override;
  TxSource::Pull next_data(int tx_index, Picos not_after) override;
  void prefetch_next(int tx_index) const override;
  bool wants_wake_after_send(int tx_index) const override {
    return tx_index < layout_.users ||
           injection_.has_packets(tx_index - layout_.users);  // user ports: transmission_done
  }
  void transmission_done(int tx_index) override;

  // Copies held anywhere in this leaf (VOQs, in flight, egress).
  uint64_t backlog() const { return ingress_.copies_waiting() + egress_.copies_held(); }
  void describe_backlog(std::ostream& out, int max_lines) const;
  uint64_t drops() const { return ingress_.drops(); }
  uint64_t copies_on_surplus_credit() const { return ingress_.copies_on_surplus_credit(); }
  uint64_t invariants_checked() const { return ingress_.invariants_checked() + multicast_.wakes_checked(); }
  // Who hears what the units report as it happens (a LeafProbe), or null.
  void set_observer(LeafObserver* observer);
  // What the leaf counts, for a probe to read (LeafProbe records them).
  const LeafLayout& layout() const { return layout_; }
  const LeafParams& params() const { return params_; }
  // Buffer units held at port k: its ingress pools' payload, its egress buffer's grants.
  uint64_t ingress_payload_units(int k) const;
  uint64_t egress_used_units(int k) const;
  // Control messages (requests, grants, ACKs, cancels) that reached the
  // leaf's ports, and those merged into one already waiting.
  uint64_t control_received() const { return control_received_; }
  uint64_t control_merged() const { return control_.merged(); }
  const IngressUnit::HoldTimes& remote_hold(int k) const { return ingress_.remote_hold(k); }
  // End of run: the multicast blocks finish (after the probe's last sample).
  void finish() { multicast_.finish(); }
  const PacketCache* cache() const { return multicast_.cache(); }
  const MulticastEngine& multicast() const { return multicast_; }
  uint64_t retransmissions(int k) const { return retransmit_.retransmissions(k); }
  // Whether a copy sent from this leaf awaits its ACK.
  bool awaiting_acks() const { return ingress_.awaiting_acks(); }

 private:
  // A message due inside the leaf: a local packet, or a control message.
  void on_internal(Payload& message);
  void on_control(Payload& message);

  const LeafParams& params_;
  const LeafParams surrogate_params_;  // the surrogate's buffers, before the units that keep a reference
  const LeafLayout layout_;
  LeafLinks links_;
  InternalPath internal_;
  ControlPath control_;
  uint64_t control_received_ = 0;  // requests, grants, ACKs, cancels that reached this leaf's ports
  // The units, in the order a frame meets them.
  IngressUnit ingress_;
  Crossbar crossbar_;
  MulticastEngine multicast_;
  RetransmitUnit retransmit_;
  FabricInjection injection_;
  EgressUnit egress_;
  SurrogateLoop loop_;
  LeafCongestionPoints congestion_;
};

}  // namespace fabric
