#pragma once
// Two implementations of the packet cache in lockstep: every call goes to
// both, the reference's answers are used, and every return value, eviction
// notice and state output (live and dead entries, background work, the
// earliest free mirror, the calling port's counters) is compared at every
// call (LockstepCheck: the first difference throws LockstepMismatch).
#include <memory>
#include <string>

#include "model/multicast/lockstep_check.h"
#include "model/multicast/packet_cache.h"

namespace fabric {

class LockstepPacketCache final : public PacketCache {
 public:
  LockstepPacketCache(std::unique_ptr<PacketCache> reference, std::unique_ptr<PacketCache> candidate,
                      LockstepCheck check);

  Lookup lookup(int port, uint32_t unit, Cycle now) const override;
  bool pass_through(int port, uint32_t unit, uint32_t cycles, uint32_t copies_to_come, bool first_copy,
                    Cycle now) override;
  int issue(int port, uint32_t unit, uint32_t cycles, Cycle now) override;
  void forget_copy(int port, uint32_t unit) override;
  void end_cycle(Cycle now) override;
  std::vector<Eviction> take_evictions() override;
  void reset(Cycle now) override;

  Cycle mirror_free_at(Cycle now) const override;
  bool background_work() const override { return reference_->background_work(); }
  uint32_t live_entries() const override { return reference_->live_entries(); }
  uint32_t dead_entries() const override { return reference_->dead_entries(); }
  const Params& params() const override { return reference_->params(); }
  const PortStats& stats(int port) const override { return reference_->stats(port); }
  int ports() const override { return reference_->ports(); }
  RtlActivity rtl_activity() const override { return candidate_->rtl_activity(); }
  void finish() override { candidate_->finish(); }

 private:
  template <class Describe>
  void compare_state(int port, Describe call);
  template <class Describe>
  void compare_counters(int port, Describe call) const;

  std::unique_ptr<PacketCache> reference_;
  std::unique_ptr<PacketCache> candidate_;
  LockstepCheck check_;
  std::vector<Eviction> evictions_;
  Cycle now_ = 0;
};

}  // namespace fabric
