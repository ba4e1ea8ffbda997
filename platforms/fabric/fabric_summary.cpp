// The fabric's lines of the run summary (PlatformTop::summarize).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "platforms/fabric/fabric_top.h"

namespace fabric {

namespace {

// Receive rate on the wire: frame bytes plus 20 B of preamble and gap each.
double wire_gbps(uint64_t bytes, uint64_t frames, Picos duration) {
  if (duration <= 0) return 0;
  return (bytes + 20.0 * frames) * 8.0 / static_cast<double>(duration) * 1000.0;
}

}  // namespace

void FabricTop::summarize(std::ostream& out, Picos simulated) const {
  char line[256];
  const RtlTotals rtl = rtl_totals();
  const double sim_ms = simulated / 1e9;
  for (const auto& [name, a] :
       {std::pair<const char*, RtlActivity>{"sync CAMs", rtl.sync}, {"packet caches", rtl.cache}}) {
    if (a.edges == 0 || sim_ms <= 0) continue;
    std::snprintf(line, sizeof line,
                  "  RTL %s: %llu commands and %llu queries (%.0f and %.0f per simulated ms), %llu clock edges\n", name,
                  static_cast<unsigned long long>(a.commands), static_cast<unsigned long long>(a.queries),
                  a.commands / sim_ms, a.queries / sim_ms, static_cast<unsigned long long>(a.edges));
    out << line;
  }
  const RecoveryTotals rec = recovery_totals();
  if (rec.corrupted > 0 || rec.retransmissions > 0) {
    std::snprintf(line, sizeof line,
                  "  soft errors: %llu messages corrupted on %d links; link retry replayed %llu messages in %llu "
                  "episodes (%llu timeouts); %llu copies retransmitted end to end\n",
                  static_cast<unsigned long long>(rec.corrupted), rec.links_with_errors,
                  static_cast<unsigned long long>(rec.replays), static_cast<unsigned long long>(rec.replay_episodes),
                  static_cast<unsigned long long>(rec.retry_timeouts),
                  static_cast<unsigned long long>(rec.retransmissions));
    out << line;
  }
  if (rec.link_acks_carried > 0) {
    std::snprintf(
        line, sizeof line, "  link ACKs: %llu rode on other messages (link.retry.ack_piggyback), %llu went alone\n",
        static_cast<unsigned long long>(rec.link_acks_carried), static_cast<unsigned long long>(rec.link_acks_alone));
    out << line;
  }
  if (rec.cna_retransmissions > 0 || rec.cna_duplicates > 0) {
    std::snprintf(line, sizeof line,
                  "  CNA transport: %llu frames sent again (%llu timeouts), %llu duplicates dropped at destinations\n",
                  static_cast<unsigned long long>(rec.cna_retransmissions),
                  static_cast<unsigned long long>(rec.cna_timeouts),
                  static_cast<unsigned long long>(rec.cna_duplicates));
    out << line;
  }
  if (rec.cna_link_drops > 0 && !rec.cna_transport) {
    std::snprintf(line, sizeof line,
                  "  %llu frames dropped corrupted on CNA-leaf links are lost: cna.e2e.retransmit=true recovers "
                  "unicast ones\n",
                  static_cast<unsigned long long>(rec.cna_link_drops));
    out << line;
  }
  if (jobs_->any()) {
    jobs_->summarize(out);
    if (!jobs_->done() && drops() > 0)
      out << "  a job waits for frames the fabric dropped (" << drops()
          << " drops): run jobs on a lossless priority (classes.lossless_priorities, job.NAME.priority) or, "
             "unicast only, with cna.e2e.retransmit = true\n";
  }
  // Receive throughput of the ports that received anything.
  std::vector<double> rates;
  for (const auto& cna : cnas_)
    if (cna->frames_received() > 0)
      rates.push_back(wire_gbps(cna->bytes_received(), cna->frames_received(), simulated));
  if (!rates.empty()) {
    double sum = 0;
    for (double x : rates) sum += x;
    std::snprintf(line, sizeof line,
                  "  receive throughput over the run, %zu receiving ports (wire Gb/s): mean %.2f, min %.2f, max %.2f\n",
                  rates.size(), sum / rates.size(), *std::min_element(rates.begin(), rates.end()),
                  *std::max_element(rates.begin(), rates.end()));
    out << line;
  }
  if (flows_.size() > 12 || flows_.empty()) return;
  std::map<uint32_t, const traffic::FlowSpec*> by_id;
  for (const auto& f : flows_) by_id[raw(f.id)] = &f;
  // One row a subflow, in the flows' order and then by destination port
  // (numbers as numbers), the columns as wide as their widest entry.
  struct Row {
    uint32_t flow, dst;
    std::string subflow;
    SubflowSummary s;
  };
  std::vector<Row> rows;
  for (const auto& cna : cnas_)
    for (const SubflowSummary& s : cna->received_summaries()) {
      const std::string name = by_id.count(raw(s.flow)) ? by_id[raw(s.flow)]->name : "?";
      rows.push_back({raw(s.flow), raw(s.dst), name + " -> " + std::to_string(raw(s.dst)), s});
    }
  std::sort(rows.begin(), rows.end(),
            [](const Row& a, const Row& b) { return std::make_pair(a.flow, a.dst) < std::make_pair(b.flow, b.dst); });
  int width = 4;  // "flow"
  for (const Row& r : rows) width = std::max(width, static_cast<int>(r.subflow.size()));
  std::snprintf(line, sizeof line, "  %-*s %8s %18s %9s %9s\n", width, "flow", "frames", "mean latency (ns)",
                "min (ns)", "max (ns)");
  out << line;
  for (const Row& r : rows) {
    const SubflowSummary& s = r.s;
    std::snprintf(line, sizeof line, "  %-*s %8llu %18.1f %9.1f %9.1f\n", width, r.subflow.c_str(),
                  static_cast<unsigned long long>(s.frames), s.latency_sum / 1e3 / std::max<uint64_t>(1, s.frames),
                  s.latency_min / 1e3, s.latency_max / 1e3);
    out << line;
  }
}

}  // namespace fabric
