#include "traffic/patterns.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <utility>

#include "config/config.h"
#include "traffic/random.h"

namespace fabric::traffic {
namespace {

using config::ConfigError;

std::string ports_allowed(int user_ports) { return "user ports 0 .. " + std::to_string(user_ports - 1); }

std::string list_text(const std::vector<int64_t>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out;
}

// Uniformly random derangement: shuffle until no port maps to itself (about
// e = 2.7 shuffles on average), so every derangement is equally likely.
std::vector<int> random_derangement(int n, uint64_t seed) {
  std::mt19937_64 rng(mix_seed(seed, 0x5045524d));  // "PERM": its own stream
  std::vector<int> target(n);
  for (;;) {
    std::iota(target.begin(), target.end(), 0);
    for (int i = n - 1; i > 0; --i) std::swap(target[i], target[uniform_below(rng, uint64_t(i) + 1)]);
    bool fixed_point = false;
    for (int i = 0; i < n && !fixed_point; ++i) fixed_point = target[i] == i;
    if (!fixed_point) return target;
  }
}

}  // namespace

std::vector<FlowSpec> build_pattern_flows(const PatternParams& params, int user_ports, uint64_t seed, FlowId first_id) {
  if (params.pattern == "none") return {};
  if (params.pattern != "permutation" && params.pattern != "uniform" && params.pattern != "fanin" &&
      params.pattern != "multicast")
    throw ConfigError("traffic.pattern", params.pattern, "none, permutation, uniform, fanin or multicast");
  if (user_ports < 2)
    throw ConfigError("traffic.pattern", params.pattern, "a pattern needs a fabric with at least 2 user ports");
  if (params.priority < 0 || params.priority >= kPriorities)
    throw ConfigError("traffic.priority", std::to_string(params.priority), "0 .. 7");
  if (!(params.load_gbps >= 0)) throw ConfigError("traffic.load_gbps", std::to_string(params.load_gbps), ">= 0 Gb/s");
  if (params.stop >= 0 && params.stop <= params.start)
    throw ConfigError("traffic.stop", std::to_string(params.stop) + " ps",
                      "a time after traffic.start, or empty for never");
  const FrameSizeDistribution size = FrameSizeDistribution::parse("traffic.frame_size", params.frame_size);

  std::vector<FlowSpec> flows;
  auto add = [&](const std::string& prefix, int src, std::vector<PortId> dests) {
    FlowSpec flow;
    flow.id = FlowId(raw(first_id) + flows.size());
    flow.name = prefix + std::to_string(src);
    flow.src = PortId(src);
    flow.dests = std::move(dests);
    flow.rate_gbps = params.load_gbps;
    flow.size = size;
    flow.priority = params.priority;
    flow.start = params.start;
    flow.stop = params.stop;
    flow.arrival = params.arrival;
    flow.phase = params.phase;
    flows.push_back(std::move(flow));
  };

  if (params.pattern == "permutation") {
    std::vector<int> target(user_ports);
    if (params.permutation == "random") {
      target = random_derangement(user_ports, seed);
    } else if (params.permutation == "shift") {
      const int64_t shift = ((params.shift % user_ports) + user_ports) % user_ports;
      if (shift == 0)
        throw ConfigError("traffic.shift", std::to_string(params.shift),
                          "a shift that is not a multiple of the " + std::to_string(user_ports) + " user ports");
      for (int src = 0; src < user_ports; ++src) target[src] = int((src + shift) % user_ports);
    } else {
      throw ConfigError("traffic.permutation", params.permutation, "random or shift");
    }
    for (int src = 0; src < user_ports; ++src) add("p", src, {PortId(target[src])});
  } else if (params.pattern == "uniform") {
    for (int src = 0; src < user_ports; ++src) {
      std::vector<PortId> dests;
      for (int dst = 0; dst < user_ports; ++dst)
        if (dst != src) dests.push_back(PortId(dst));
      add("u", src, std::move(dests));
    }
  } else if (params.pattern == "multicast") {
    const int leaves = user_ports / params.ports_per_leaf;
    const std::string pool_text = list_text(params.multicast_leaf_pool);
    std::set<int64_t> pool(params.multicast_leaf_pool.begin(), params.multicast_leaf_pool.end());
    for (int64_t leaf : pool)
      if (leaf < 0 || leaf >= leaves)
        throw ConfigError("traffic.multicast_leaf_pool", pool_text, "leaves 0 .. " + std::to_string(leaves - 1));
    if (params.multicast_leaves_per_flow < 1 || params.multicast_leaves_per_flow > int64_t(pool.size()))
      throw ConfigError("traffic.multicast_leaves_per_flow", std::to_string(params.multicast_leaves_per_flow),
                        "1 .. the " + std::to_string(pool.size()) + " leaves of traffic.multicast_leaf_pool");
    const std::vector<int64_t> pool_leaves(pool.begin(), pool.end());
    std::mt19937_64 rng(seed);
    for (int64_t src : params.multicast_sources) {
      if (src < 0 || src >= user_ports || pool.count(src / params.ports_per_leaf))
        throw ConfigError("traffic.multicast_sources", list_text(params.multicast_sources),
                          ports_allowed(user_ports) + " outside the leaves of traffic.multicast_leaf_pool");
      for (int64_t i = 0; i < params.multicast_flows_per_source; ++i) {
        std::vector<int64_t> drawn = pool_leaves;
        for (size_t k = drawn.size(); k > 1; --k) std::swap(drawn[k - 1], drawn[uniform_below(rng, k)]);
        drawn.resize(size_t(params.multicast_leaves_per_flow));
        std::sort(drawn.begin(), drawn.end());
        std::vector<PortId> dests;
        for (int64_t leaf : drawn)
          for (int p = 0; p < params.ports_per_leaf; ++p)
            dests.push_back(PortId(uint32_t(leaf * params.ports_per_leaf + p)));
        add("m", int(src), std::move(dests));
        FlowSpec& flow = flows.back();
        flow.name += "_" + std::to_string(i);
        flow.multicast = true;
        flow.rate_gbps = params.load_gbps / double(params.multicast_flows_per_source);
      }
    }
  } else {  // fanin
    const std::string sources_text = list_text(params.fanin_sources);
    if (params.fanin_dest < 0 || params.fanin_dest >= user_ports)
      throw ConfigError("traffic.fanin_dest", std::to_string(params.fanin_dest), ports_allowed(user_ports));
    if (params.fanin_sources.empty())
      throw ConfigError("traffic.fanin_sources", sources_text, "one or more source ports");
    std::set<int64_t> seen;
    for (int64_t src : params.fanin_sources) {
      if (src < 0 || src >= user_ports)
        throw ConfigError("traffic.fanin_sources", sources_text, ports_allowed(user_ports));
      if (src == params.fanin_dest)
        throw ConfigError("traffic.fanin_sources", sources_text,
                          "source ports other than traffic.fanin_dest = " + std::to_string(params.fanin_dest));
      if (!seen.insert(src).second)
        throw ConfigError("traffic.fanin_sources", sources_text, "each source port at most once");
    }
    for (int64_t src : seen) add("f", int(src), {PortId(uint32_t(params.fanin_dest))});  // set: port order
  }
  return flows;
}

}  // namespace fabric::traffic
