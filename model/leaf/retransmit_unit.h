#pragma once
// End-to-end recovery at a leaf's source ports (mechanism 10). Each copy a
// port starts has a timer; if its cumulative ACK has not come back when the
// timer falls due and it is its VOQ's oldest copy in flight, the port's
// crossbar input cuts the copy into packets again, ahead of new copies, over
// the same egress units its grant reserved at the target (the target holds
// them until the copy is complete). The target's side (dropping duplicate
// packets, ACKing a forwarded copy again) is the EgressUnit's.
#include <cstdint>
#include <memory>
#include <vector>

#include "model/core/wakeup.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_observer.h"
#include "model/leaf/leaf_params.h"
#include "model/leaf/retransmit_timers.h"

namespace fabric {

class IngressUnit;
class Crossbar;

class RetransmitUnit {
 public:
  struct Wiring {
    IngressUnit& ingress;
    Crossbar& crossbar;
  };
  // Off (arm() does nothing) unless params.retransmit.
  RetransmitUnit(const LeafLayout& layout, const LeafParams& params, EventQueue& events, const Wiring& wiring);
  // Who hears of each copy sent again (a LeafProbe), or null.
  void set_observer(LeafObserver* observer) { observer_ = observer; }

  // Port k starts copy `copy_seq` of the VOQ.
  void arm(int k, uint32_t voq, uint32_t copy_seq) {
    if (!timers_) return;
    const auto outstanding = [this](int port, uint32_t v, uint32_t seq) { return in_flight(port, v, seq); };
    if (timers_->arm(now_ps(), k, voq, copy_seq, outstanding)) wakeup_->at(timers_->next_due());
  }
  // Copies port k has sent again.
  uint64_t retransmissions(int k) const { return retransmissions_[k]; }

 private:
  void step();
  // Whether port k's copy `copy_seq` of the VOQ still waits for its ACK.
  bool in_flight(int k, uint32_t voq, uint32_t copy_seq) const;

  const LeafLayout& layout_;
  LeafObserver* observer_ = nullptr;
  Wiring wiring_;
  std::unique_ptr<RetransmitTimers> timers_;  // null: end-to-end retransmission off
  std::unique_ptr<Wakeup> wakeup_;
  std::vector<uint64_t> retransmissions_;  // by port
};

}  // namespace fabric
