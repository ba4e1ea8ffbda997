#include "model/multicast/lockstep_packet_cache.h"

#include <string>

namespace fabric {

namespace {
std::string port_unit(int port, uint32_t unit) {
  return "port " + std::to_string(port) + ", unit " + std::to_string(unit);
}
}  // namespace

LockstepPacketCache::LockstepPacketCache(std::unique_ptr<PacketCache> reference, std::unique_ptr<PacketCache> candidate,
                                         LockstepCheck check)
    : reference_(std::move(reference)), candidate_(std::move(candidate)), check_(std::move(check)) {}

PacketCache::Lookup LockstepPacketCache::lookup(int port, uint32_t unit, Cycle now) const {
  const Lookup ref = reference_->lookup(port, unit, now);
  check_.same("lookup", ref, candidate_->lookup(port, unit, now), now,
              [&] { return "lookup(" + port_unit(port, unit) + ")"; });
  return ref;
}

bool LockstepPacketCache::pass_through(int port, uint32_t unit, uint32_t cycles, uint32_t copies_to_come,
                                       bool first_copy, Cycle now) {
  now_ = now;
  const auto call = [&] {
    return "pass_through(" + port_unit(port, unit) + ", cycles " + std::to_string(cycles) + ", copies to come " +
           std::to_string(copies_to_come) + (first_copy ? ", first copy)" : ", a miss)");
  };
  const bool ref = reference_->pass_through(port, unit, cycles, copies_to_come, first_copy, now);
  check_.same("written", ref, candidate_->pass_through(port, unit, cycles, copies_to_come, first_copy, now), now, call);
  compare_state(port, call);
  return ref;
}

int LockstepPacketCache::issue(int port, uint32_t unit, uint32_t cycles, Cycle now) {
  now_ = now;
  const auto call = [&] { return "issue(" + port_unit(port, unit) + ", cycles " + std::to_string(cycles) + ")"; };
  const int ref = reference_->issue(port, unit, cycles, now);
  check_.same("mirror", ref, candidate_->issue(port, unit, cycles, now), now, call);
  compare_state(port, call);
  return ref;
}

void LockstepPacketCache::forget_copy(int port, uint32_t unit) {
  reference_->forget_copy(port, unit);
  candidate_->forget_copy(port, unit);
  compare_state(port, [&] { return "forget_copy(" + port_unit(port, unit) + ")"; });
}

void LockstepPacketCache::end_cycle(Cycle now) {
  now_ = now;
  reference_->end_cycle(now);
  candidate_->end_cycle(now);
  compare_state(-1, [] { return std::string("end_cycle()"); });
}

void LockstepPacketCache::reset(Cycle now) {
  now_ = now;
  reference_->reset(now);
  candidate_->reset(now);
  evictions_.clear();
  compare_state(-1, [] { return std::string("reset()"); });
}

Cycle LockstepPacketCache::mirror_free_at(Cycle now) const {
  const Cycle ref = reference_->mirror_free_at(now);
  check_.same("mirror_free_at", ref, candidate_->mirror_free_at(now), now,
              [] { return std::string("mirror_free_at()"); });
  return ref;
}

// port: the port whose counters the call may change (-1: every port, as a
// background reclaim may free any port's entry).
template <class Describe>
void LockstepPacketCache::compare_state(int port, Describe call) {
  std::vector<Eviction> ref = reference_->take_evictions();
  check_.same("evictions", ref, candidate_->take_evictions(), now_, call);
  check_.same("live_entries", reference_->live_entries(), candidate_->live_entries(), now_, call);
  check_.same("dead_entries", reference_->dead_entries(), candidate_->dead_entries(), now_, call);
  check_.same("background_work", reference_->background_work(), candidate_->background_work(), now_, call);
  check_.same("mirror_free_at", reference_->mirror_free_at(now_), candidate_->mirror_free_at(now_), now_, call);
  const int first = port >= 0 ? port : 0;
  const int last = port >= 0 ? port : reference_->ports() - 1;
  for (int k = first; k <= last; ++k) compare_counters(k, call);
  for (const Eviction& e : ref) compare_counters(e.port, call);
  evictions_.insert(evictions_.end(), ref.begin(), ref.end());
}

template <class Describe>
void LockstepPacketCache::compare_counters(int port, Describe call) const {
  check_.same(("port " + std::to_string(port) + " counters").c_str(), reference_->stats(port), candidate_->stats(port),
              now_, call);
}

std::vector<PacketCache::Eviction> LockstepPacketCache::take_evictions() {
  std::vector<Eviction> out;
  out.swap(evictions_);
  return out;
}

}  // namespace fabric
