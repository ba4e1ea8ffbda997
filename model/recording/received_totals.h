#pragma once
// What one destination port received, per subflow (flow, this port):
// frames, bytes, first and last delivery, and the latency's sum, minimum
// and maximum: the run's subflow_summary rows, kept in every log level.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/recording/recorder.h"

namespace fabric {

class ReceivedTotals {
 public:
  explicit ReceivedTotals(PortId port) : port_(port) {}
  void add(FlowId flow, uint32_t bytes, Picos now, Picos latency);
  // One per flow, in flow order (a deterministic row order).
  std::vector<SubflowSummary> summaries() const;
  uint64_t frames() const { return frames_; }
  uint64_t bytes() const { return bytes_; }

 private:
  PortId port_;
  uint64_t frames_ = 0;
  uint64_t bytes_ = 0;
  std::unordered_map<uint32_t, SubflowSummary> by_flow_;
};

}  // namespace fabric
