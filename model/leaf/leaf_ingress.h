#pragma once
// Ingress side of one leaf port, as plain C++: payload pools, header pools,
// the frames stored in them and the virtual output queues (one per target
// port and VL) holding one header per frame copy. A copy leaves its VOQ when
// the port's credit covers it and is held until its ACK comes back; the
// payload is freed after the last copy's ACK. A lossless frame is admitted
// only whole (room_for); one without room waits at the port (hold), never
// dropped.
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/core/buffer_pool.h"
#include "model/core/circular_queue.h"
#include "model/core/drop_reason.h"
#include "model/leaf/ingress_room.h"
#include "model/leaf/leaf_params.h"
#include "model/multicast/mcbc_table.h"
#include "model/protocol/fabric_protocol.h"
#include "model/qcn/ingress_culprits.h"

namespace fabric {

struct StoredFrame : FrameHeader {
  uint16_t units = 0;
  uint16_t copies_left = 0;  // copies not yet acknowledged
  uint8_t copies = 0;        // copies queued at admission
  bool multicast = false;
  Vl pool_vl{};          // the VL whose pool holds the payload: the one it arrived on
  FrameArrival arrival;  // a frame still arriving: when its packets are in (cut-through)
  Picos admitted = 0;    // when its header was admitted: copies hold header and payload from then
};

// What the multicast mechanisms need to know of a stored multicast frame:
// the VOQs that started its copies, in order (VOQ sync), and how many copies
// have sent each of its packets (the packet cache).
struct MulticastProgress {
  uint8_t copies_started = 0;
  std::array<uint32_t, kMaxLocalFanout> started{};
  std::vector<uint8_t> packet_sends;  // by segment
};

struct Voq {
  PortId target{};
  LeafId target_leaf{};
  Vl vl{};
  CircularQueue<uint32_t, 8> waiting;    // frame slots not yet sent, in arrival order
  uint32_t head_request = 0;             // request number of waiting.front(); the others follow on
  CircularQueue<uint32_t, 8> in_flight;  // frame slots sent, awaiting ACK, in send order
  uint32_t credits = 0;                  // granted units not yet used (per copy: of the copies marked granted)
  uint32_t waiting_units = 0;            // units of the copies not yet sent: the backlog Vth limits
  uint32_t owed_units = 0;               // units granted (or to be) for copies dropped from the head, to return
  uint32_t next_copy_seq = 0;
  // How the crossbar and the multicast engine are dealing with the VOQ:
  // their marks, kept with the VOQ because every offer reads them. Only
  // Crossbar (listed_ready, parked) and MulticastEngine (streaming, and
  // parked when sync resumes the VOQ) write them; LeafIngress never does.
  struct DispatchMarks {
    bool listed_ready = false;  // in the crossbar input's ready list
    bool streaming = false;     // its head multicast copy is being sent
    bool parked = false;        // ready but suspended by VOQ sync
  } marks;
  uint32_t next_of_target = 0;  // 1 + index of the next VOQ to the same target; 0: none
};

// What changed in PAUSE state after an admission or a release.
struct PauseChange {
  uint8_t priority;
  bool stop;
  bool headers = false;  // a STOP the header pool called for (above leaf.pause.headers_hi)
};

class LeafIngress {
 public:
  LeafIngress(PortId port, const LeafParams& params, uint64_t seed = 1);

  // Admission of an arriving frame. On success the frame is stored, its header
  // queued, and the VOQ index returned; otherwise the reason of the drop.
  struct Admission {
    std::optional<uint32_t> voq;
    DropReason reason = DropReason::other;
    std::optional<uint32_t> drop_head_of;  // as CopyAdmission
  };
  Admission admit(const EthernetFrame& frame, PortId target, LeafId target_leaf);

  // Multicast admission in three steps: the payload once (nullopt: dropped
  // whole), then each copy's header into its VOQ, then seal: false when no
  // copy was queued, and the payload is freed again. A lossless frame must
  // have room_for its payload and headers first: admitting one without is a
  // broken invariant (std::logic_error), never a drop.
  std::optional<uint32_t> store_payload(const EthernetFrame& frame, bool multicast);
  // One copy's header (mechanism 4, steps 2 and 3): header memory, the VL's
  // pool, the header policy (lossy VLs), then the VOQ threshold (lossy).
  // A lossless VL's header pool is private, outside the header memory.
  // With drop-from-head the header is queued and `drop_head_of` names the
  // VOQ whose next-to-send copy the caller must now drop (take_head, then
  // release_copy).
  struct CopyAdmission {
    std::optional<uint32_t> voq;
    DropReason reason = DropReason::other;
    std::optional<uint32_t> drop_head_of;
  };
  // A copy towards a surrogate travels on the VL one above the one the frame
  // is stored in (the source's copies to first-level surrogates stay on the
  // starting VL); a copy to a final destination on the starting VL.
  CopyAdmission queue_copy(uint32_t slot, PortId target, LeafId target_leaf, bool to_surrogate = false);
  bool seal(uint32_t slot);
  // The order in which a frame's n copies ask for headers.
  std::array<uint8_t, kMaxLocalFanout> copy_order(size_t n) { return admission_.order(n, rng_); }
  // Takes the VOQ's next-to-send copy out (drop from head): its backlog
  // goes. What becomes of its credit (leaf.voq.dropped_copy_credit): with
  // `keep` its units are owed back out of spare credit (settle_owed); with
  // `per_copy` the caller returns its grant in hand (head_granted first) or
  // withdraws its request; with `withdraw` the caller withdraws as many
  // units of the VOQ's requests, and what the arbiter had granted comes
  // back as owed (on_shortfall). Returns the frame slot.
  uint32_t take_head(uint32_t voq_index);
  // A copy that will never be acknowledged: frees its header, and the payload
  // after the frame's last copy.
  void release_copy(uint32_t voq_index, uint32_t slot);
  // Owed units the VOQ's credit can pay now, taken from its credit (with
  // `keep` only what its waiting copies do not need).
  uint32_t settle_owed(uint32_t voq_index);
  // `withdraw`: units a drop asked to withdraw that the arbiter had granted
  // already; they are owed back.
  void on_shortfall(uint32_t voq_index, uint32_t units) { voqs_[voq_index].owed_units += units; }
  // `per_copy`: whether the VOQ's head copy has its own grant.
  bool head_granted(const Voq& q) const {
    if (!per_copy()) return false;
    const CircularQueue<bool, 8>& g = granted_[index_of(q)];
    return !g.empty() && g.front();
  }
  // The request number of the copy queue_copy queued last in the VOQ.
  static uint32_t tail_request(const Voq& q) { return q.head_request + static_cast<uint32_t>(q.waiting.size()) - 1; }
  // Copies sent on surplus credit, units owed back for dropped copies (only
  // with `keep`; otherwise a broken invariant).
  uint64_t copies_on_surplus_credit() const { return copies_on_surplus_credit_; }
  // Copies checked against their own grant.
  uint64_t grants_checked() const { return grants_checked_; }
  MulticastProgress& progress(uint32_t slot) { return progress_[slot]; }

  Voq& voq(uint32_t index) { return voqs_[index]; }
  const Voq& voq(uint32_t index) const { return voqs_[index]; }
  size_t voq_count() const { return voqs_.size(); }
  std::optional<uint32_t> find_voq(PortId target, Vl vl) const;
  StoredFrame& frame(uint32_t slot) { return frames_[slot]; }

  // The units the VOQ's head copy needs, 0 if it has none waiting.
  uint32_t head_units(const Voq& q) const;
  bool head_covered(const Voq& q) const;
  // Takes the head copy for sending: uses its credit, moves it in flight.
  // Returns the frame slot and the copy's sequence number.
  // Breaks an invariant (at time `now`): with `per_copy` "sent on its own
  // grant", with `withdraw` "no copy on surplus credit".
  std::pair<uint32_t, uint32_t> start_copy(uint32_t voq_index, Picos now = 0);
  // A grant of `units` for the copies `copies`. Per copy, each waiting
  // copy in the run gets its grant; the units of the run's copies that are
  // gone (dropped before their withdrawal reached the arbiter) are returned:
  // the units to release at once. Otherwise the units join the VOQ's
  // credit (settle_owed) and 0 is returned.
  uint32_t on_grant(uint32_t voq_index, uint32_t units, CopyRange copies = {});
  // `count` oldest copies in flight are acknowledged: frees headers and,
  // after the last copy of a frame, its payload.
  void on_ack(uint32_t voq_index, uint32_t count);
  // A cumulative ACK: every copy of the VOQ below copy sequence number
  // `through` has been forwarded (a lost ACK is covered by a later one, a
  // repeated one changes nothing). Returns the copies newly acknowledged.
  uint32_t on_ack_through(uint32_t voq_index, uint32_t through);
  // The copy sequence number of the VOQ's oldest copy in flight.
  static uint32_t oldest_in_flight(const Voq& q) { return q.next_copy_seq - static_cast<uint32_t>(q.in_flight.size()); }
  // The frame slot of copy `copy_seq` if it is in flight, unacknowledged.
  std::optional<uint32_t> in_flight_slot(uint32_t voq_index, uint32_t copy_seq) const;

  // Keeps what an ingress CP's culprit selection needs (see IngressCulprits).
  void track_culprits(CulpritPolicy policy, uint32_t max_probes);
  FlowId culprit(uint8_t priority, FlowId arriving) { return culprits_->pick(priority, arriving, rng_); }
  std::mt19937_64& rng() { return rng_; }

  // Whether a lossless frame fits whole now: its payload in the pool of the
  // VL it arrives on, and `demand` headers in its copies' header pools.
  // Always none for a lossy priority (its drops decide).
  RoomShortage room_for(const FrameHeader& frame, HeaderDemand demand) const;
  // A lossless frame without room waits at the port, behind any frame of its
  // priority that waits already (arrival order), until room frees; the port
  // STOPs its CNA meanwhile (pause_change).
  void hold(const EthernetFrame& frame) { held_[frame.priority].push_back(frame); }
  bool holding(uint8_t priority) const { return !held_[priority].empty(); }
  const EthernetFrame& next_held(uint8_t priority) const { return held_[priority].front(); }
  void pop_held(uint8_t priority) { held_[priority].pop_front(); }

  // PAUSE transitions since the last call (lossless priorities only): STOP
  // above Qhi or leaf.pause.headers_hi, or while a frame is held; GO below
  // Qlow and leaf.pause.headers_lo with none held. With leaf.pause.enable
  // off, only a held frame STOPs.
  std::optional<PauseChange> pause_change(uint8_t priority);

  bool is_lossless(uint8_t priority) const { return lossless(priority); }
  uint32_t lossy_units() const { return lossy_pool_.used(); }
  // Payload units held in the lossy pool and every lossless pool.
  uint32_t payload_units() const;
  uint32_t lossless_units(uint8_t priority) const { return lossless_pool_[raw(unicast_vl(priority))].used(); }
  uint32_t headers(Vl vl) const { return header_pool_[raw(vl)].used(); }
  // Copies queued or awaiting their ACK, and frames held at the port.
  uint64_t copies_waiting() const;

 private:
  uint32_t voq_index(PortId target, Vl vl, LeafId target_leaf);
  uint32_t store(const EthernetFrame& frame, uint16_t units, bool multicast);
  void free_frame(uint32_t slot);
  bool lossless(uint8_t priority) const { return params_.lossless.test(priority); }
  bool per_copy() const { return params_.dropped_credit == LeafParams::DroppedCredit::per_copy; }
  size_t index_of(const Voq& q) const { return static_cast<size_t>(&q - voqs_.data()); }
  std::string port_name() const { return "port " + std::to_string(raw(port_)); }  // for a broken invariant
  // The VL whose pool holds a frame's payload: the one it arrived on.
  static Vl arrival_vl(const FrameHeader& f) {
    return Vl(raw(unicast_vl(f.priority)) + (f.levels > 0 ? f.levels - 1 : 0));
  }
  // A copy's VL (mechanism 8): a copy towards a surrogate on the VL of the
  // frame's level, a copy to a final destination on the starting VL.
  static Vl copy_vl(const FrameHeader& f, bool to_surrogate) {
    return Vl(raw(unicast_vl(f.priority)) + (to_surrogate ? f.levels : 0));
  }
  BufferPool& payload_pool(uint8_t priority, Vl vl) {
    return lossless(priority) ? lossless_pool_[raw(vl)] : lossy_pool_;
  }

  PortId port_;
  const LeafParams& params_;
  BufferPool lossy_pool_;
  std::array<BufferPool, kVls> lossless_pool_;  // one per lossless VL
  std::array<BufferPool, kVls> header_pool_;
  uint32_t lossy_headers_held_ = 0;  // lossy VLs: the header memory
  uint64_t copies_on_surplus_credit_ = 0;
  uint64_t grants_checked_ = 0;
  HeaderAdmission admission_;
  std::shared_ptr<const VoqDropPolicy> voq_drop_;  // at Vth (leaf.voq.drop)
  std::unique_ptr<IngressCulprits> culprits_;      // null without ingress CPs
  std::mt19937_64 rng_;
  std::array<bool, kPriorities> paused_{};
  std::array<std::deque<EthernetFrame>, kPriorities> held_;  // lossless frames waiting for room
  std::vector<StoredFrame> frames_;
  std::vector<MulticastProgress> progress_;  // by slot, for multicast frames
  std::vector<uint32_t> free_slots_;
  std::vector<Voq> voqs_;
  // per_copy only, by VOQ, beside its `waiting`: whether each copy's own
  // grant is in (kept out of Voq, which every offer reads).
  std::vector<CircularQueue<bool, 8>> granted_;
  std::vector<uint32_t> first_of_target_;     // by target port: 1 + index of its first VOQ; 0: none
  mutable uint32_t last_found_ = UINT32_MAX;  // the VOQ found last: grants and ACKs come in runs
};

}  // namespace fabric
