#include "platforms/app/run_summary.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "model/link/link_census.h"

namespace fabric {

namespace {

// "packet 12.0, link_ack 3.6, ...": the kinds links carried, most first;
// the kind that carries the workload's data by the platform's word for it.
std::string messages_by_kind(uint64_t delivered, const Vocabulary& words) {
  const LinkCensus::Counts counts = LinkCensus::totals();
  std::vector<std::pair<uint64_t, int>> kinds;
  for (int k = 0; k < LinkCensus::kKinds; ++k)
    if (counts[k] > 0) kinds.emplace_back(counts[k], k);
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string text;
  char item[64];
  for (const auto& [n, k] : kinds) {
    const std::string kind = LinkCensus::name(k);
    std::snprintf(item, sizeof item, "%s%s %.2f", text.empty() ? "" : ", ",
                  kind == "frame" ? words.on_link.c_str() : kind.c_str(),
                  delivered ? static_cast<double>(n) / delivered : 0.0);
    text += item;
  }
  return text;
}

}  // namespace

void print_summary(std::ostream& out, const SummaryContext& ctx, const RunResult& r, const PlatformTop& top) {
  char line[256];
  const uint64_t delivered = top.frames_delivered();
  const char* unit = ctx.words.unit.c_str();
  const char* units = ctx.words.units.c_str();
  std::snprintf(line, sizeof line, "fabricsim: study %s, run %lld in %s: %s\n", ctx.study.c_str(),
                static_cast<long long>(ctx.run_id), ctx.db_path.c_str(), ctx.status.c_str());
  out << line;
  const int threads = top.scheduler().threads();
  std::snprintf(line, sizeof line,
                "  simulated %.3f us in %.2f s wall on %d thread%s: %.0f %s delivered per wall second\n",
                r.simulated / 1e6, r.wall_seconds, threads, threads == 1 ? "" : "s",
                r.wall_seconds > 0 ? delivered / r.wall_seconds : 0.0, units);
  out << line;
  std::snprintf(line, sizeof line, "  %s: %llu sent, %llu delivered (a copy at each destination), %llu dropped\n",
                units, static_cast<unsigned long long>(top.frames_sent()), static_cast<unsigned long long>(delivered),
                static_cast<unsigned long long>(top.drops()));
  out << line;
  std::snprintf(line, sizeof line, "  invariants: %llu checked, %d broken\n",
                static_cast<unsigned long long>(top.invariants_checked()), ctx.invariant_broken ? 1 : 0);
  out << line;
  if (const auto copies = top.copy_account()) {
    const CopyTally& c = copies->tally;
    std::snprintf(line, sizeof line,
                  "  copies: %llu injected = %llu delivered + %llu dropped + %llu in the system at the end%s\n",
                  static_cast<unsigned long long>(c.expected), static_cast<unsigned long long>(c.delivered),
                  static_cast<unsigned long long>(c.dropped), static_cast<unsigned long long>(c.in_fabric()),
                  copies->drained ? " (drained: all accounted for)" : "");
    out << line;
    if (c.dropped > 0) {
      out << "    dropped by reason:";
      for (int r = 0; r < kDropReasons; ++r)
        if (c.dropped_by[static_cast<size_t>(r)] > 0)
          out << " " << to_string(static_cast<DropReason>(r)) << " " << c.dropped_by[static_cast<size_t>(r)];
      out << "\n";
    }
  }
  std::snprintf(line, sizeof line, "  link messages: %llu, %.1f per delivered %s\n",
                static_cast<unsigned long long>(top.messages_moved()),
                delivered ? static_cast<double>(top.messages_moved()) / delivered : 0.0, unit);
  out << line;
  if (delivered > 0)
    out << "    by kind, per delivered " << unit << ": " << messages_by_kind(delivered, ctx.words) << "\n";
  const uint64_t events = top.scheduler().served();
  const uint64_t moved = top.messages_moved();
  std::snprintf(line, sizeof line, "  model events served: %llu, %.1f per delivered %s, %.2f per link message\n",
                static_cast<unsigned long long>(events), delivered ? static_cast<double>(events) / delivered : 0.0,
                unit, moved ? static_cast<double>(events) / moved : 0.0);
  out << line;

  top.summarize(out, r.simulated);
}

}  // namespace fabric
