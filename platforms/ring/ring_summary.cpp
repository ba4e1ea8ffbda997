// The ring platform's lines of the run summary (PlatformTop::summarize).
#include <cstdio>

#include "platforms/ring/ring_top.h"

namespace fabric {

void RingTop::summarize(std::ostream& out, Picos simulated) const {
  const double sent = static_cast<double>(frames_sent());
  char line[320];
  std::snprintf(
      line, sizeof line,
      "  %d ring(s) of %d stations, %dx%d %s, offered %.3f Gb/s%s: throughput %.3f Gb/s; %llu of %llu packets "
      "multicast; %.3f tickets and %.4f retracts per packet\n",
      config_.rings, config_.stations, config_.group_count, config_.group_size, to_string(config_.pattern),
      config_.load_gbps, config_.load_schedule.empty() ? "" : " outside its load phases", throughput_gbps(simulated),
      static_cast<unsigned long long>(frames_sent()), static_cast<unsigned long long>(packets_offered()),
      sent > 0 ? attempts() / sent : 0.0, sent > 0 ? retracts() / sent : 0.0);
  out << line;
}

}  // namespace fabric
