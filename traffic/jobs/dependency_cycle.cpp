#include "traffic/jobs/dependency_cycle.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace fabric::traffic {

std::vector<uint32_t> dependency_cycle(const RankSchedule& rank) {
  const std::vector<JobOp>& ops = rank.ops;
  const auto count = static_cast<uint32_t>(ops.size());
  // Kahn's order: an op can start once every op it waits for can.
  std::vector<uint32_t> waits_for(count, 0);
  std::vector<std::vector<uint32_t>> waited_by(count);
  for (uint32_t op = 0; op < count; ++op) {
    for (const std::vector<uint32_t>* prerequisites : {&ops[op].after, &ops[op].after_start}) {
      for (const uint32_t on : *prerequisites) {
        if (on >= count) {
          throw std::out_of_range("op " + std::to_string(op) + " depends on op " + std::to_string(on) + " of " +
                                  std::to_string(count));
        }
        waited_by[on].push_back(op);
        ++waits_for[op];
      }
    }
  }
  std::vector<uint32_t> can_start;
  for (uint32_t op = 0; op < count; ++op) {
    if (waits_for[op] == 0) can_start.push_back(op);
  }
  while (!can_start.empty()) {
    const uint32_t op = can_start.back();
    can_start.pop_back();
    for (const uint32_t dependent : waited_by[op]) {
      if (--waits_for[dependent] == 0) can_start.push_back(dependent);
    }
  }

  // An op still waiting waits for another still waiting (the others were
  // all released), so following such links from one must come round to an
  // op already seen: that loop is the cycle.
  auto stuck_prerequisite = [&](uint32_t op) {
    for (const std::vector<uint32_t>* prerequisites : {&ops[op].after, &ops[op].after_start}) {
      for (const uint32_t on : *prerequisites) {
        if (waits_for[on] > 0) return on;
      }
    }
    throw std::logic_error("dependency_cycle: a waiting op with no waiting prerequisite");
  };
  constexpr uint32_t kUnseen = std::numeric_limits<uint32_t>::max();
  for (uint32_t start = 0; start < count; ++start) {
    if (waits_for[start] == 0) continue;
    std::vector<uint32_t> position(count, kUnseen);
    std::vector<uint32_t> path;
    uint32_t op = start;
    while (position[op] == kUnseen) {
      position[op] = static_cast<uint32_t>(path.size());
      path.push_back(op);
      op = stuck_prerequisite(op);
    }
    return {path.begin() + position[op], path.end()};
  }
  return {};
}

}  // namespace fabric::traffic
