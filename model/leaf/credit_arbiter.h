#pragma once
// The credit arbiter of one egress port and VL. It owns the egress buffer
// units of that port and VL and grants them to requesting VOQs with deficit
// round robin. A request is granted whole (never a part of it), so a granted
// VOQ can always send the frames it asked for and egress reassembly cannot
// fill up with frames that will never complete.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/core/circular_queue.h"
#include "model/protocol/copy_range.h"

namespace fabric {

class CreditArbiter {
 public:
  struct Grant {
    uint32_t requester;
    uint32_t units;
    uint32_t frames;
    CopyRange copies;  // the request's
  };

  // quantum: units added to a requester's deficit per round; weights scale it.
  CreditArbiter(uint32_t capacity_units, uint32_t quantum_units);

  void request(uint32_t requester, uint32_t units, uint32_t frames, CopyRange copies = {});
  // A copy dropped at the source (request number `copy`, `units`): its
  // request, or its part of a merged one, is withdrawn if not yet granted.
  // False when it was granted already (the source returns the units).
  bool withdraw(uint32_t requester, uint32_t copy, uint32_t units);
  // Up to `units` of the requester's requests not yet granted, newest
  // first, are withdrawn (a request may shrink): the units withdrawn.
  uint32_t withdraw_newest(uint32_t requester, uint32_t units);
  void set_weight(uint32_t requester, uint32_t weight);
  void release(uint32_t units);
  // Grants whole requests in DRR order while free units allow; appends to out.
  void arbitrate(std::vector<Grant>& out);

  uint32_t free_units() const { return free_; }
  uint32_t capacity() const { return capacity_; }
  size_t active_requesters() const { return active_.size(); }
  uint64_t pending_units() const { return pending_units_; }

 private:
  struct Request {
    uint32_t units;
    uint32_t frames;  // 0: withdrawn whole, passed over without a grant
    CopyRange copies;
  };
  struct Requester {
    uint32_t id = 0;
    uint32_t weight = 1;
    uint64_t deficit = 0;
    bool turn_started = false;
    bool active = false;
    CircularQueue<Request, 2> requests;
  };
  Requester& find(uint32_t id);

  uint32_t capacity_;
  uint32_t quantum_;
  uint32_t free_;
  uint64_t pending_units_ = 0;
  std::vector<Requester> requesters_;
  std::unordered_map<uint32_t, uint32_t> index_;
  CircularQueue<uint32_t, 16> active_;  // indices into requesters_, in round-robin order
};

}  // namespace fabric
