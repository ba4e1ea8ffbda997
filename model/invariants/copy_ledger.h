#pragma once
// Conservation of copies (issue 50): every copy a source injects ends
// delivered once, dropped, or still in the fabric. The ledger is told of
// each frame injected, each delivery and each drop as the run records them
// (LedgerRecorder) and keeps, per flow and source port, the copies
// expected (one per destination the frame is for), delivered and dropped.
// A delivery or drop beyond the copies expected (a duplicate, a copy made
// from nothing) breaks the invariant at once; at the end of a run that
// drained, every copy expected must be delivered or dropped.
//
// What a drop costs in copies: a unicast frame 1; a multicast copy the
// deliveries its branch of the replication tree would have made (a copy
// to a surrogate port carries the surrogate's own delivery and those of the
// ports below it); a whole multicast frame dropped at its source, all of
// them; dropped whole at a surrogate's ingress, the deliveries below the
// surrogate. A fabric packet lost on a leaf-spine link loses no copy by
// itself: the source's end-to-end retransmission sends the copy again, or
// the copy stays unfinished in the egress (in the fabric). A drop that the
// CNAs' end-to-end transport recovers (its flows' every drop) is not final
// either: the frame is sent again.
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/core/ids.h"
#include "model/recording/recorder.h"

namespace fabric {

// A flow as the ledger counts its copies.
struct LedgerFlow {
  FlowId id{};
  PortId src{};
  int priority = 0;
  bool multicast = false;
  // Multicast: each port of its replication tree (source, surrogates,
  // destinations) and the deliveries a copy to that port leads to; the
  // source's entry is the group's size.
  std::unordered_map<uint32_t, uint32_t> deliveries_through;
  std::vector<uint32_t> members;  // multicast: the destinations, sorted
  bool drops_recovered = false;   // the CNAs' end-to-end transport sends dropped frames again
};

// Deliveries through each port of a tree given as each replicating port's
// local fanout set, `members` the group's destinations.
std::unordered_map<uint32_t, uint32_t> deliveries_through(
    uint32_t source, const std::unordered_map<uint32_t, std::vector<uint32_t>>& fanout,
    const std::vector<uint32_t>& members);

constexpr int kDropReasons = static_cast<int>(DropReason::other) + 1;

struct CopyTally {
  uint64_t expected = 0;
  uint64_t delivered = 0;
  uint64_t dropped = 0;                             // final drops, in copies
  uint64_t recovered = 0;                           // drop records that lost no copy for good (sent again)
  std::array<uint64_t, kDropReasons> dropped_by{};  // `dropped` by DropReason
  uint64_t in_fabric() const { return expected - delivered - dropped; }
  void add(const CopyTally& o);
};

class CopyLedger {
 public:
  void add_flow(LedgerFlow flow);
  // Records of flows never added (the transport's ACK frames) are ignored.
  void injected(const FrameRecord& r);
  void delivered(const DeliveryRecord& r);
  void dropped(const DropRecord& r);
  // End of a run: with `drained` (nothing queued, on a wire or awaited
  // anywhere), every copy expected must be delivered or dropped.
  void finish(Picos end, bool drained);

  CopyTally total() const;
  // Per source port and priority (a port's class), for the summary and tests.
  CopyTally of(PortId src, int priority) const;
  // Per source port, the ports that sent, in port order.
  std::vector<std::pair<PortId, CopyTally>> by_port() const;
  uint64_t checks() const { return checks_; }

 private:
  struct Entry {
    LedgerFlow flow;
    CopyTally tally;
  };
  Entry* entry(FlowId flow);
  uint32_t copies_dropped(const LedgerFlow& f, const DropRecord& r) const;
  void check(const Entry& e, Picos t, const char* what);

  std::unordered_map<uint32_t, Entry> entries_;  // by flow id
  // The entries of flow ids below kDirect by id, one load per record (the
  // configured flows are numbered from 0); others through the map.
  static constexpr uint32_t kDirect = 1u << 20;
  std::vector<Entry*> direct_;
  uint64_t checks_ = 0;
};

}  // namespace fabric
