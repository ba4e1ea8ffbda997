#pragma once
// Round robin over the flows that share one transmit queue of a CNA (one
// priority): each place the queue has free goes to the next flow, after the
// one served last, that has a frame to give. Without it the flow attached
// first would take every place a departure frees and a second saturating
// flow of the same priority would starve. Plain C++, no SystemC: the CNA
// says which flows are ready, this class only keeps the turn.
#include <cstddef>
#include <optional>
#include <vector>

namespace fabric {

class FlowRoundRobin {
 public:
  // Members are opaque indices (the CNA's source numbers); the first round
  // serves them in the order they were added.
  void add(size_t member) { members_.push_back(member); }
  bool empty() const { return members_.empty(); }
  const std::vector<size_t>& members() const { return members_; }

  // The first member, starting after the one served last, for which
  // ready(member) holds; it becomes the one served last. nullopt when none
  // is ready (the turn does not move).
  template <class Ready>
  std::optional<size_t> next(Ready&& ready) {
    const size_t n = members_.size();
    size_t i = start_;
    for (size_t k = 0; k < n; ++k) {
      if (ready(members_[i])) {
        start_ = i + 1 == n ? 0 : i + 1;
        return members_[i];
      }
      i = i + 1 == n ? 0 : i + 1;
    }
    return std::nullopt;
  }

 private:
  std::vector<size_t> members_;
  size_t start_ = 0;  // position in members_ where the next search begins
};

}  // namespace fabric
