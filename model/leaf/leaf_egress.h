#pragma once
// Egress side of one leaf port, as plain C++: the credit arbiters (one per
// VL) that own the egress buffer, reassembly of sprayed packets into copies
// per (source port, VL), and service of the sources whose next copy is
// complete: weighted round robin across priorities (a priority's weight is
// how many copies it may forward per turn), round robin across sources
// within a priority.
#include <array>
#include <bitset>
#include <memory>
#include <optional>
#include <vector>

#include "model/leaf/credit_arbiter.h"
#include "model/leaf/ingress_room.h"
#include "model/leaf/leaf_params.h"
#include "model/leaf/reorder_buffer.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

struct EgressGrant {
  PortId src;
  Vl vl;
  uint32_t units;
  uint32_t frames;
  CopyRange copies;
};

struct ForwardedCopy {
  CopyMeta meta;
  PortId src;
  Vl vl;
  uint32_t copy_seq;  // its sequence number from src on vl: the ACK says all below copy_seq + 1 are done
};

class LeafEgress {
 public:
  LeafEgress(PortId port, const LeafParams& params);

  void on_request(PortId src, Vl vl, uint32_t units, uint32_t frames, CopyRange copies = {});
  void arbitrate(std::vector<EgressGrant>& out);
  // A packet entered the egress buffer: kept, kept and a copy became ready,
  // or a duplicate of one that arrived before (an end-to-end retransmission),
  // dropped; `forwarded_through` then says whether its copy has been
  // forwarded, the cumulative ACK to send again.
  enum class Arrival { kept, ready, duplicate };
  Arrival on_packet(const FabricPacket& packet, Picos entered_at);
  // Copies from src on vl forwarded so far.
  uint32_t forwarded(PortId src, Vl vl) { return contexts_[context_index(src, vl)].forwarded; }
  // A packet from src on vl will arrive soon: prefetch its reassembly state
  // if it is the context found last (packets of a copy come together).
  void prefetch_context(PortId src, Vl vl) const {
    if (src != last_src_ || vl != last_vl_) return;
    const char* c = reinterpret_cast<const char*>(&contexts_[last_index_]);
    for (int line = 0; line < 8; ++line) __builtin_prefetch(c + 64 * line);
  }

  struct Next {
    std::optional<ForwardedCopy> copy;
    Picos retry_at;  // when nothing is ready now: the earliest ready time, or kNever
  };
  // The next copy to forward. With `room` (a surrogate's loopback into its
  // own ingress), a copy waits while room->shortage says its frame would not
  // fit; the VLs that held a copy back are in blocked(), those where a copy
  // lacked headers (not payload room) also in blocked_by_headers().
  Next next_copy(Picos now, const LoopRoom* room = nullptr);
  const std::bitset<kVls>& blocked() const { return blocked_; }
  const std::bitset<kVls>& blocked_by_headers() const { return blocked_by_headers_; }
  // The copy has left for the CNA: its units go back to the arbiter.
  void on_forwarded(const ForwardedCopy& copy);
  // Units granted for copies the source dropped from a VOQ's head.
  void on_cancel(Vl vl, uint32_t units) { arbiter(vl).release(units); }
  // A dropped copy's request, withdrawn if the arbiter has not granted it.
  void on_withdraw(PortId src, Vl vl, uint32_t copy, uint32_t units) { arbiter(vl).withdraw(raw(src), copy, units); }
  // Units a dropped copy asked for, withdrawn from the source's newest
  // requests: those withdrawn (the rest the arbiter had granted already).
  uint32_t on_withdraw_units(PortId src, Vl vl, uint32_t units) { return arbiter(vl).withdraw_newest(raw(src), units); }

  uint32_t free_units(Vl vl) const;
  // Units holding packets that have arrived and not yet left (an egress CP's queue).
  uint32_t held_units(Vl vl) const { return held_[raw(vl)]; }
  // Egress buffer units granted to sources (reserved or holding packets).
  uint32_t used_units() const;
  uint64_t copies_held() const;
  size_t sources() const { return contexts_.size(); }

 private:
  struct Context {
    PortId src;
    Vl vl;
    ReorderBuffer reorder;
    bool listed = false;
    uint32_t next_of_src = 0;  // 1 + index of the next context of the same source; 0: none
    uint32_t forwarded = 0;    // copies taken for forwarding, in copy_seq order
  };
  CreditArbiter& arbiter(Vl vl);
  uint32_t context_index(PortId src, Vl vl);
  uint32_t find_or_add_context(PortId src, Vl vl);
  std::optional<ForwardedCopy> take_ready(int priority, Picos now, Picos& earliest, const LoopRoom* room);

  PortId port_;
  const LeafParams& params_;
  std::vector<std::unique_ptr<CreditArbiter>> arbiters_;
  std::vector<Context> contexts_;
  std::vector<uint32_t> first_of_src_;  // by source port: 1 + index of its first context; 0: none
  // The context found last: packets of one copy arrive together, and a port
  // often hears from one source only.
  PortId last_src_{UINT32_MAX};
  Vl last_vl_{};
  uint32_t last_index_ = 0;
  // Per priority: contexts with a complete next copy, in round-robin order.
  std::array<CircularQueue<uint32_t, 8>, kPriorities> ready_;
  int turn_priority_ = kPriorities - 1;
  uint32_t served_in_turn_ = 0;
  std::vector<CreditArbiter::Grant> scratch_;
  std::array<uint32_t, kVls> held_{};
  std::bitset<kVls> blocked_;
  std::bitset<kVls> blocked_by_headers_;
};

}  // namespace fabric
