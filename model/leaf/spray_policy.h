#pragma once
// Packet-level spraying over a leaf's uplinks (not flow hashing): a packet
// may take any uplink whose queue has room.
#include <memory>
#include <string>
#include <vector>

namespace fabric {

class SprayPolicy {
 public:
  virtual ~SprayPolicy() = default;
  // queue_depths[i]: packets queued for uplink i; returns the chosen uplink,
  // or -1 when every queue is at capacity.
  virtual int choose(const std::vector<int>& queue_depths, int capacity) = 0;
};

// Next uplink after the last one used that has room.
class RoundRobinSpray final : public SprayPolicy {
 public:
  int choose(const std::vector<int>& queue_depths, int capacity) override;

 private:
  size_t next_ = 0;
};

// The uplink with the shortest queue; ties go round robin.
class LeastLoadedSpray final : public SprayPolicy {
 public:
  int choose(const std::vector<int>& queue_depths, int capacity) override;

 private:
  size_t next_ = 0;
};

// name: "round_robin" or "least_loaded".
std::unique_ptr<SprayPolicy> make_spray_policy(const std::string& name);

}  // namespace fabric
