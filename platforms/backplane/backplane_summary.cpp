// The backplane's lines of the run summary (PlatformTop::summarize).
#include <cstdio>

#include "platforms/backplane/backplane_top.h"

namespace fabric {

namespace {

// Throughput and latency from the warm-up on.
void print_steady_figures(std::ostream& out, Picos warmup, const BackplaneTop::Figures& f) {
  char line[256];
  std::snprintf(line, sizeof line,
                "  from the warm-up (%.3f ms) on: throughput %.3f Gb/s of frame bytes received, %llu frames\n",
                warmup / 1e9, f.throughput_gbps, static_cast<unsigned long long>(f.frames_measured));
  out << line;
  std::snprintf(line, sizeof line, "  latency (application to sink): mean %.1f us, p99 %.1f us, max %.1f us\n",
                f.latency_mean_ps / 1e6, f.latency_p99_ps / 1e6, f.latency_max_ps / 1e6);
  out << line;
}

}  // namespace

void BackplaneTop::summarize(std::ostream& out, Picos simulated) const {
  char line[256];
  const Figures f = figures(simulated);
  if (config_.warmup >= simulated) {
    std::snprintf(line, sizeof line,
                  "  the run (%.3f ms) ended before the warm-up (backplane.warmup = %.3f ms): no throughput or latency "
                  "from it on; %llu frames delivered in all\n",
                  simulated / 1e9, config_.warmup / 1e9, static_cast<unsigned long long>(frames_delivered()));
    out << line;
  } else {
    print_steady_figures(out, config_.warmup, f);
  }
  const SharedMemorySwitch& m = switch_->memory();
  std::snprintf(line, sizeof line, "  switch memory: %u B, at most %u B used; %llu frames discarded\n", m.memory(),
                m.peak(), static_cast<unsigned long long>(m.discards()));
  out << line;
  if (config_.sw.pause) {
    std::snprintf(line, sizeof line,
                  "  802.3x: %llu XOFF and %llu XON sent to each station; %.0f PAUSE frames/s on the busiest "
                  "station link, %.4f %% of it\n",
                  static_cast<unsigned long long>(switch_->xoffs()), static_cast<unsigned long long>(switch_->xons()),
                  f.pause_per_second, f.pause_share * 100);
    out << line;
  }
}

}  // namespace fabric
