#include "platforms/app/run_summary.h"

#include <cstdio>

namespace fabric {


void print_summary(std::ostream& out, const SummaryContext& ctx, const RunResult& r, const PlatformTop& top) {
  char line[256];
  const uint64_t delivered = top.frames_delivered();
  std::snprintf(line, sizeof line, "fabricsim: study %s, run %lld in %s: %s\n", ctx.study.c_str(),
                static_cast<long long>(ctx.run_id), ctx.db_path.c_str(), ctx.status.c_str());
  out << line;
  const int threads = top.scheduler().threads();
  std::snprintf(line, sizeof line,
                "  simulated %.3f us in %.2f s wall on %d thread%s: %.0f frames delivered per wall second\n",
                r.simulated / 1e6, r.wall_seconds, threads, threads == 1 ? "" : "s",
                r.wall_seconds > 0 ? delivered / r.wall_seconds : 0.0);
  out << line;
  std::snprintf(line, sizeof line, "  frames: %llu sent, %llu delivered, %llu dropped\n",
                static_cast<unsigned long long>(top.frames_sent()), static_cast<unsigned long long>(delivered),
                static_cast<unsigned long long>(top.drops()));
  out << line;
  std::snprintf(line, sizeof line, "  link messages (frames, packets, control, credits): %llu, %.1f per delivered frame\n",
                static_cast<unsigned long long>(top.messages_moved()),
                delivered ? static_cast<double>(top.messages_moved()) / delivered : 0.0);
  out << line;
  const uint64_t events = top.scheduler().served();
  std::snprintf(line, sizeof line, "  model events served: %llu, %.1f per delivered frame\n",
                static_cast<unsigned long long>(events), delivered ? static_cast<double>(events) / delivered : 0.0);
  out << line;

  top.summarize(out, r.simulated);
}

}  // namespace fabric
