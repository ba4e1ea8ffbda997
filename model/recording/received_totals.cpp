#include "model/recording/received_totals.h"

#include <algorithm>

namespace fabric {

void ReceivedTotals::add(FlowId flow, uint32_t bytes, Picos now, Picos latency) {
  ++frames_;
  bytes_ += bytes;
  auto [it, first] = by_flow_.try_emplace(raw(flow));
  SubflowSummary& s = it->second;
  if (first) s = SubflowSummary{flow, port_, 0, 0, now, now, 0, latency, latency};
  ++s.frames;
  s.bytes += bytes;
  s.last_delivered = now;
  s.latency_sum += latency;
  s.latency_min = std::min(s.latency_min, latency);
  s.latency_max = std::max(s.latency_max, latency);
}

std::vector<SubflowSummary> ReceivedTotals::summaries() const {
  std::vector<SubflowSummary> out;
  for (const auto& entry : by_flow_) out.push_back(entry.second);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return raw(a.flow) < raw(b.flow); });
  return out;
}

}  // namespace fabric
