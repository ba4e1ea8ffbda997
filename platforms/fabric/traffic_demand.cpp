#include "platforms/fabric/traffic_demand.h"

#include <algorithm>
#include <map>
#include <utility>

namespace fabric {

double TrafficDemand::busiest(const std::vector<double>& v) const {
  return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

namespace {

// A flow's offered frame bytes per second: its rate counts 20 B per frame.
double frame_gbps(const traffic::FlowSpec& f, double cna_gbps) {
  const double rate = f.closed_loop ? cna_gbps : f.rate_gbps;
  const double mean = f.size.mean();
  return rate * mean / (mean + traffic::kWireOverheadBytes);
}

}  // namespace

TrafficDemand traffic_demand(const std::vector<traffic::FlowSpec>& flows, const Geometry& g,
                             const MulticastGroups& groups, double cna_gbps, uint8_t lossless_priorities) {
  TrafficDemand d;
  d.leaf_out_gbps.assign(g.leaves, 0.0);
  d.leaf_in_gbps.assign(g.leaves, 0.0);
  d.port_remote_in_gbps.assign(g.user_ports(), 0.0);
  d.port_remote_out_gbps.assign(g.user_ports(), 0.0);
  d.port_sends_lossless.assign(g.user_ports(), false);
  std::vector<double> lossless_out(g.user_ports(), 0.0);
  std::vector<double> lossless_headers(g.user_ports(), 0.0);
  std::vector<double> lossless_bytes(g.user_ports(), 0.0);  // per us, every lossless frame a port admits
  std::map<std::pair<uint32_t, uint32_t>, double> lossy_pairs;
  const auto leaf = [&](uint32_t port) { return raw(g.leaf_of(PortId(port))); };
  const auto remote = [&](uint32_t from, uint32_t to, double gbps, bool lossless) {
    if (leaf(from) == leaf(to)) return;
    d.leaf_out_gbps[leaf(from)] += gbps;
    d.leaf_in_gbps[leaf(to)] += gbps;
    if (to < d.port_remote_in_gbps.size()) d.port_remote_in_gbps[to] += gbps;
    if (from < d.port_remote_out_gbps.size()) {
      d.port_remote_out_gbps[from] += gbps;
      if (lossless) {
        lossless_out[from] += gbps;
        d.port_sends_lossless[from] = true;
      }
    }
    if (!lossless) lossy_pairs[{from, to}] += gbps;
  };
  const auto largest_lossy = [&](const traffic::FlowSpec& f) {
    if (!(lossless_priorities >> f.priority & 1))
      d.largest_lossy_frame = std::max(d.largest_lossy_frame, f.size.largest());
  };
  for (const traffic::FlowSpec& f : flows) {
    const double gbps = frame_gbps(f, cna_gbps);
    const bool lossless = lossless_priorities >> f.priority & 1;
    largest_lossy(f);
    const double frames_per_us =
        (f.closed_loop ? cna_gbps : f.rate_gbps) * 1000.0 / 8.0 / (f.size.mean() + traffic::kWireOverheadBytes);
    if (lossless) lossless_bytes[raw(f.src)] += frames_per_us * f.size.mean();
    if (f.multicast) {
      const auto tree = groups.trees.find(raw(f.id));
      if (tree == groups.trees.end()) continue;
      const auto own = tree->second.fanout.find(raw(f.src));
      if (lossless && own != tree->second.fanout.end())
        lossless_headers[raw(f.src)] += frames_per_us * static_cast<double>(own->second.size());
      for (const auto& [port, targets] : tree->second.fanout)
        for (PortId t : targets) remote(port, raw(t), gbps, lossless);
      continue;
    }
    if (f.dests.empty()) continue;
    const double share = gbps / static_cast<double>(f.dests.size());
    if (lossless) lossless_headers[raw(f.src)] += frames_per_us;
    for (PortId t : f.dests) remote(raw(f.src), raw(t), share, lossless);
  }
  std::vector<int> senders(g.leaves, 0);
  for (int port = 0; port < g.user_ports(); ++port)
    if (d.port_remote_out_gbps[port] > 0) ++senders[leaf(port)];
  for (int n : senders) d.most_remote_senders = std::max(d.most_remote_senders, n);
  for (const auto& [pair, gbps] : lossy_pairs) d.lossy_pair_gbps = std::max(d.lossy_pair_gbps, gbps);
  d.lossless_port_out_gbps = d.busiest(lossless_out);
  for (int port = 0; port < g.user_ports(); ++port) {
    if (lossless_headers[port] <= d.lossless_port_headers_per_us) continue;
    d.lossless_port_headers_per_us = lossless_headers[port];
    d.lossless_headers_per_byte = lossless_bytes[port] > 0 ? lossless_headers[port] / lossless_bytes[port] : 0;
  }
  return d;
}

}  // namespace fabric
