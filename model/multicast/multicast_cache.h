#pragma once
// The multicast packet cache of one leaf, cycle accurate, as plain C++
// (mechanism 2). C entries of one packet, mirrored in M SRAMs so that M
// copies can stream out in parallel; one write port shared by the ports;
// per-port tags.
//
// An entry's life: live while copies will still read it (the port says at
// the write how many copies are to come; each header and each copy the port
// drops counts one down; its tag is in the port's table), dead from the
// moment no header will read it again (the tag is gone, so the port's
// buffer unit may hold a new packet), reclaimable once its write and reads
// have completed, then free. While fewer than `background_free_min` entries
// are free the controller frees one entry with no outstanding headers per
// cycle: a reclaimable dead one, else (`background_evicts_live`) the least
// recently used live one whose write and reads have completed, evicted with
// a notice to its port. A write that finds no free entry takes a dead one,
// else evicts the least recently used live entry and tells its port.
//
// The interface and its calls: packet_cache.h.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/multicast/packet_cache.h"

namespace fabric {

class MulticastCache final : public PacketCache {
 public:
  MulticastCache(const Params& params, int ports);

  Lookup lookup(int port, uint32_t unit, Cycle now) const override;
  bool pass_through(int port, uint32_t unit, uint32_t cycles, uint32_t copies_to_come, bool first_copy,
                    Cycle now) override;
  int issue(int port, uint32_t unit, uint32_t cycles, Cycle now) override;
  void forget_copy(int port, uint32_t unit) override;
  void end_cycle(Cycle now) override;
  std::vector<Eviction> take_evictions() override;
  void reset(Cycle now) override;

  Cycle mirror_free_at(Cycle now) const override;
  bool background_work() const override;
  uint32_t live_entries() const override { return live_count_; }
  uint32_t dead_entries() const override { return dead_count_; }
  const Params& params() const override { return params_; }
  const PortStats& stats(int port) const override { return stats_[port]; }
  int ports() const override { return static_cast<int>(stats_.size()); }

  // What the qualification check's coverage reads (rtl/check/): the entry a
  // write at `now` would take, and the one end_cycle() would free, each
  // with the number of candidates that share its last use (the LRU tie the
  // choice breaks; 0 for a free entry or none).
  enum class Victim { free, dead, live, none };
  struct Choice {
    Victim victim = Victim::none;
    uint32_t ties = 0;
  };
  Choice write_choice(Cycle now) const;
  // No write in progress and none started this cycle: a pass-through may write.
  bool write_port_free(Cycle now) const { return now >= write_busy_until_ && last_write_cycle_ != now; }
  Choice background_choice(Cycle now) const;

 private:
  struct Entry {
    bool valid = false;  // live or dead (not free)
    int port = 0;
    uint32_t unit = 0;
    uint32_t copies_left = 0;    // copies still to read it; 0: dead
    Cycle ready_at = 0;          // first cycle a header may read it
    Cycle written_at = 0;        // the write completes: a live entry is evictable from then on
    Cycle accesses_done_at = 0;  // its write and every read issued so far complete: a dead one is reclaimable
    Cycle last_use = 0;
  };
  enum class Candidates { live, idle_live, dead };  // idle_live: no read of it outstanding
  int allocate(Cycle now);
  struct Lru {
    int address = -1;   // -1: no candidate
    uint32_t ties = 0;  // candidates last used in the same cycle as it
  };
  Lru least_recently_used(Cycle now, Candidates among) const;
  void die(int address);
  void evict(int address);
  void reclaim(int address);
  void free_entry(int address);
  static uint64_t key(int port, uint32_t unit) { return (uint64_t(uint32_t(port)) << 32) | unit; }

  Params params_;
  std::vector<Entry> entries_;
  std::vector<int> free_list_;
  uint32_t live_count_ = 0;
  uint32_t dead_count_ = 0;
  std::vector<Cycle> mirror_busy_until_;
  Cycle write_busy_until_ = 0;
  Cycle last_write_cycle_ = ~Cycle{0};
  std::unordered_map<uint64_t, int> tags_;  // (port, unit) -> address: the ports' tag tables
  std::vector<PortStats> stats_;
  std::vector<Eviction> evictions_;
};

}  // namespace fabric
