#pragma once
// Culprit selection of a congestion point (mechanism 6): which flow a CNM
// names. Swappable, chosen by configuration:
//   arrival     the flow of the frame that was just sampled (the standard);
//   occupancy   deterministic occupancy sampling: the flow holding the most
//               units of the monitored buffer (per-flow counters);
//   random      random occupancy sampling over a CulpritArray, one word per
//               buffer unit {valid, priority, the frame it belongs to}:
//               random units are probed until one of the right priority is
//               found; after `max_probes` misses a sequential scan from the
//               last probe finds the next one. Stateless: no flow counters.
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/core/ids.h"

namespace fabric {

// Who holds each unit of a buffer, for random occupancy sampling.
class CulpritArray {
 public:
  explicit CulpritArray(uint32_t units);

  // Takes `n` free units for a frame (its handle: the frame's slot) of a
  // priority; appends their indices to `out`. False when fewer are free.
  bool take(uint32_t n, uint8_t priority, uint32_t frame, std::vector<uint32_t>& out);
  void give_back(const std::vector<uint32_t>& units);
  // A frame holding a unit of `priority`, by up to max_probes random probes,
  // then a scan; nullopt when no unit of that priority is held.
  std::optional<uint32_t> sample(uint8_t priority, std::mt19937_64& rng, uint32_t max_probes,
                                 uint32_t* probes_used = nullptr) const;
  uint32_t used() const { return used_; }

 private:
  struct Word {
    bool valid = false;
    uint8_t priority = 0;
    uint32_t frame = 0;
  };
  std::vector<Word> words_;
  std::vector<uint32_t> free_;
  uint32_t used_ = 0;
};

// Per-flow occupancy of a buffer, for deterministic occupancy sampling.
class OccupancyByFlow {
 public:
  void add(FlowId flow, uint32_t units) { units_[raw(flow)] += units; }
  void remove(FlowId flow, uint32_t units);
  // The flow with the most units (the lowest id among equals); nullopt when empty.
  std::optional<FlowId> largest() const;

 private:
  std::unordered_map<uint32_t, uint64_t> units_;
};

enum class CulpritPolicy { arrival, occupancy, random };
CulpritPolicy parse_culprit_policy(const std::string& name);

}  // namespace fabric
