#pragma once
// A leaf switch: the SystemC shell around LeafIngress/LeafEgress. It owns
// the links' ends, the crossbar timing (36 B per 454 MHz cycle per
// interface), packet spraying over the uplinks and the routing of control
// messages; the algorithms live in the plain classes it calls.
//
// Ports: rx/tx index k < user_ports_per_leaf faces the CNA of user port k;
// index user_ports_per_leaf + s faces spine s.
#include <bitset>
#include <memory>
#include <ostream>
#include <vector>

#include "model/core/geometry.h"
#include "model/core/wakeup.h"
#include "model/leaf/fdb.h"
#include "model/leaf/input_share.h"
#include "model/leaf/internal_path.h"
#include "model/leaf/leaf_egress.h"
#include "model/leaf/retransmit_timers.h"
#include "model/leaf/leaf_ingress.h"
#include "model/leaf/leaf_params.h"
#include "model/leaf/spray_policy.h"
#include "model/link/link_params.h"
#include "model/multicast/mcbc_table.h"
#include "model/multicast/multicast_cache.h"
#include "model/multicast/voq_sync_cam.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"
#include "model/recording/recorder.h"

namespace fabric {

struct LeafContext {
  const LeafParams& params;
  const Geometry& geometry;
  const Fdb& fdb;
  const McbcTable& mcbc;
  PayloadPool& pool;
  Recorder& recorder;
  int spine_buffer_packets;  // credits of each uplink
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

  RxPort& user_rx(int k) { return *rx_[k]; }
  TxPort& user_tx(int k) { return *tx_[k]; }
  RxPort& downlink_rx(int s) { return *rx_[users_ + s]; }
  TxPort& uplink_tx(int s) { return *tx_[users_ + s]; }

  void receive(int rx_index, Payload& payload) override;
  void prefetch_receive(int rx_index, const Payload& payload) const override;
  void prefetch_receive_deep(int rx_index, const Payload& payload) const override;
  TxSource::Pull next_data(int tx_index, Picos not_after) override;
  void prefetch_next(int tx_index) const override;
  bool wants_wake_after_send(int tx_index) const override {
    return tx_index < users_ || !uplinks_[tx_index - users_].packets.empty();  // user ports: transmission_done
  }
  void transmission_done(int tx_index) override;

  // Copies held anywhere in this leaf (VOQs, in flight, egress).
  uint64_t backlog() const;
  void describe_backlog(std::ostream& out, int max_lines) const;
  uint64_t drops() const { return drops_; }
  // Records each user port's buffer occupancy at time t as samples
  // 'ingress_bytes' and 'egress_bytes' of entity 'port<N>', the cache's
  // 'cache_entries' of entity 'leaf<L>' and the cache counters of the ports
  // that sent multicast.
  void sample_occupancy(Picos t);
  // End of run: the final cache counters.
  void finish(Picos end);
  const MulticastCache* cache() const { return cache_.get(); }

 private:
  struct CrossbarInput {
    std::deque<uint32_t> ready;       // VOQs whose head copy is covered by credit
    bool sending = false;             // a copy is being cut into packets
    uint32_t voq = 0, slot = 0, copy_seq = 0;
    uint16_t next_segment = 0;
    Picos free_at = 0;
    bool blocked = false;             // waiting for room in an uplink queue
    bool resending = false;           // the copy being cut is an end-to-end retransmission
    std::deque<std::pair<uint32_t, uint32_t>> resend;  // (VOQ, copy_seq) to retransmit, before new copies
    std::unique_ptr<Wakeup> wakeup;
  };
  struct UplinkQueue {
    RingQueue<Payload*, 4> packets;
  };
  // A multicast copy being sent, packet by packet: through the port's own
  // interface (first copy, miss, cache off) or a cache mirror (hit).
  struct CopyStream {
    uint32_t voq, slot, copy_seq;
    uint16_t next_segment, segments;
    Picos busy_until;  // its previous packet is still streaming
  };
  struct PortMulticast {
    std::vector<CopyStream> streams;
    size_t header_turn = 0, payload_turn = 0;
    InputShare share;
    std::unique_ptr<VoqSyncCam> sync;
  };

  PortId port(int k) const { return k == surrogate_ ? geometry_.surrogate_port(id_) : geometry_.user_port(id_, k); }
  bool is_local(LeafId leaf) const { return leaf == id_; }

  // ingress
  void on_frame(int k, Payload& frame);
  void drop_frame(int k, const EthernetFrame& f, DropReason reason, int64_t dst);
  void check_pause(int k, uint8_t priority);
  void send_control(ControlKind kind, PortId from, PortId to, Vl vl, uint32_t units, uint32_t count);
  void route_control(Payload& message);
  void on_control(Payload& message);
  void on_grant(const ControlMessage& grant);
  // Drop from head: the VOQ's next-to-send copy goes (counted as forwarded
  // for VOQ sync); its granted units go back to the target as a cancel.
  void drop_from_head(int k, uint32_t voq);
  void pay_owed(int k, uint32_t voq);
  // surrogate loopback (leaf_surrogate.cpp)
  void loop_step();
  void on_looped(const ForwardedCopy& copy);
  void check_loop_pause(Vl vl);
  // QCN congestion points (leaf_qcn.cpp)
  void sample_ingress_cp(int k, const EthernetFrame& f);
  void sample_egress_cp(int k, const FabricPacket& last_packet);
  // A CNM for the culprit's CNA at port `source`, from the CP of port
  // cp_port (an egress CP) or of `source` itself (an ingress CP).
  void send_cnm(PortId source, FlowId culprit, uint8_t priority, uint8_t fb, bool from_ingress, int cp_port = 0);
  CongestionPoint& congestion_point(bool ingress, int k, uint8_t priority);
  void list_if_ready(int k, uint32_t voq);
  // crossbar
  void crossbar_step(int k);
  bool take_unicast_copy(int k);
  // Each returns the bytes moved, 0 when blocked.
  uint32_t emit_segment(int k);
  // Where a packet of q goes: uplink index, -1 for this leaf; false when
  // every uplink queue is full.
  bool route(const Voq& q, int& uplink);
  void launch_packet(int k, const Voq& q, const StoredFrame& f, uint16_t segment, uint32_t copy_seq, int uplink,
                     Picos transfer);
  void wake_blocked_inputs();
  // multicast (leaf_multicast.cpp)
  void on_multicast_frame(int k, const EthernetFrame& f, Mid mid);
  void start_stream(int k, uint32_t voq);
  void count_as_forwarded(int k, uint32_t voq, uint32_t slot);
  void apply_sync_changes(int k);
  int payload_stream(int k, Picos now) const;
  uint32_t emit_stream_payload(int k, int stream);
  bool issue_hit(int k, Cycle c, Cycle& next);
  void advance_stream(int k, int stream, Picos packet_done);
  void multicast_clock();
  void kick_multicast_clock(Picos at);
  uint32_t cache_unit(uint32_t slot, uint16_t segment) const { return slot * params_.max_frame_units + segment; }
  Cycle cycle_of(Picos t) const { return static_cast<Cycle>(t / cycle_ps_); }
  void record_cache_counters(Picos t);
  // end-to-end recovery (leaf_retransmit.cpp)
  void arm_retransmit(int k, uint32_t voq, uint32_t copy_seq);
  void retransmit_step();
  bool take_resend(int k);
  bool resend_still_due(int k);
  // A duplicate packet (a retransmission) of a copy already forwarded: its
  // ACK was lost, so the cumulative ACK goes again.
  void resend_ack(int k, const FabricPacket& duplicate);
  // egress
  void run_arbiter(int k);
  void enter_egress(int k, Payload& packet, Picos arrival);
  void on_internal(Payload& message);

  LeafId id_;
  const LeafParams& params_;
  const Geometry& geometry_;
  const Fdb& fdb_;
  const McbcTable& mcbc_;
  PayloadPool& pool_;
  Recorder& recorder_;
  int users_;
  int surrogate_;  // the surrogate port's index: after the user ports
  int ports_;      // user ports and the surrogate
  int spines_;
  LeafParams surrogate_params_;  // before the ports that keep a reference
  std::vector<std::unique_ptr<RxPort>> rx_;
  std::vector<std::unique_ptr<TxPort>> tx_;
  std::deque<LeafIngress> ingress_;  // deque: elements never move
  std::deque<LeafEgress> egress_;
  std::vector<CrossbarInput> inputs_;
  int blocked_inputs_ = 0;  // inputs waiting for room in an uplink queue
  std::vector<Picos> crossbar_out_free_;
  std::vector<std::optional<ForwardedCopy>> forwarding_;
  std::unique_ptr<UplinkQueue[]> uplinks_;
  std::vector<int> uplink_depth_;
  std::unique_ptr<SprayPolicy> spray_;
  size_t control_uplink_rr_ = 0;
  EventQueue& events_;
  InternalPath internal_;
  std::vector<EgressGrant> grants_;
  uint64_t drops_ = 0;
  Picos cycle_ps_;
  uint64_t seed_;
  std::vector<std::array<std::unique_ptr<CongestionPoint>, kPriorities>> cp_in_, cp_out_;
  std::vector<PortMulticast> mc_;
  std::unique_ptr<MulticastCache> cache_;  // null: cache off
  std::unique_ptr<Wakeup> mc_clock_;
  std::unique_ptr<Wakeup> loop_wakeup_;
  std::optional<ForwardedCopy> looping_;  // the copy the surrogate's egress is handing back
  Picos loop_free_at_ = 0;
  std::bitset<kVls> loop_paused_;           // VLs whose next frame waits for room at the surrogate's ingress
  bool mc_blocked_ = false;
  bool multicast_seen_ = false;                // a hit waits for room in an uplink queue
  int mc_first_port_ = 0;                  // the port that issues first in the next cycle
  std::unique_ptr<RetransmitTimers> retransmit_;  // null: end-to-end retransmission off
  std::unique_ptr<Wakeup> retransmit_wakeup_;
  std::vector<uint64_t> retransmissions_;         // by port

 public:
  uint64_t retransmissions(int k) const { return retransmissions_[k]; }
  // Whether a copy sent from this leaf awaits its ACK.
  bool awaiting_acks() const;
};

}  // namespace fabric
