#include "platforms/fabric/fabric_instances.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/leaf/lossless_limits.h"
#include "model/leaf/pause_headroom.h"
#include "platforms/fabric/fabric_sizing.h"
#include "platforms/fabric/link_names.h"
#include "platforms/fabric/topology_params.h"
#include "platforms/fabric/traffic_bounds.h"
#include "traffic/frame_size.h"

namespace fabric {
namespace {

constexpr const char* kLinkNames =
    "link names of this fabric: leafL_spineS_up, leafL_spineS_down, leafL_portK_from_cna, leafL_portK_to_cna";
constexpr const char* kUplinkRateKey = "topology.uplink_gbps";

// The links an override selects, its patterns expanded; a name or pattern
// that selects no link of the fabric is a ConfigError naming the key.
std::vector<std::string> selected_links(const config::Config& config, const config::InstanceOverride& o,
                                        const Geometry& geometry) {
  const std::vector<std::string> all = link_names(geometry);
  std::vector<std::string> selected;
  for (const std::string& given : o.selection.names) {
    bool any = false;
    for (const std::string& name : all) {
      if (!config::name_matches(given, name)) continue;
      any = true;
      if (std::find(selected.begin(), selected.end(), name) == selected.end()) selected.push_back(name);
    }
    if (!any) config.fail(o.key, std::string(kLinkNames) + " ('" + given + "' names none)");
  }
  return selected;
}

bool is_rate(const config::InstanceOverride& o) { return o.class_key == kUplinkRateKey; }

// The most headers one lossless frame takes at a user port: one per copy.
uint32_t lossless_headers_per_frame(const std::vector<traffic::FlowSpec>& flows, const LeafParams& leaf) {
  for (const traffic::FlowSpec& f : flows)
    if (f.multicast && leaf.lossless.test(static_cast<size_t>(f.priority))) return kMaxLocalFanout;
  return 1;
}

// "leaf 3", "leaves 0-7,12"
std::string instances_text(const std::string& one, const std::string& many, const std::vector<int>& members) {
  std::string text;
  for (size_t i = 0; i < members.size();) {
    size_t j = i;
    while (j + 1 < members.size() && members[j + 1] == members[j] + 1) ++j;
    text += (text.empty() ? "" : ",") + std::to_string(members[i]);
    if (j > i) text += "-" + std::to_string(members[j]);
    i = j + 1;
  }
  return (members.size() == 1 ? one : many) + " " + text;
}

// Each override's indices within 0 .. count-1, or a ConfigError naming it.
void check_range(const config::Config& c, const std::vector<config::InstanceOverride>& overrides, int count,
                 const std::string& plural) {
  for (const config::InstanceOverride& o : overrides) {
    if (o.selection.indices.empty() || *o.selection.indices.rbegin() < count) continue;
    c.fail(o.key, count == 0 ? "no instance: this fabric has no " + plural
                             : "indices 0 .. " + std::to_string(count - 1) + " (this fabric has " +
                                   std::to_string(count) + " " + plural + ")");
  }
}

// The instances some override covers, grouped by the overrides that cover
// them: those covered by the same ones share their parameters.
std::map<std::vector<size_t>, std::vector<int>> by_overrides(const std::vector<config::InstanceOverride>& overrides,
                                                             int count) {
  std::map<std::vector<size_t>, std::vector<int>> groups;
  if (overrides.empty()) return groups;
  for (int i = 0; i < count; ++i) {
    std::vector<size_t> covering;
    for (size_t o = 0; o < overrides.size(); ++o)
      if (overrides[o].selection.contains(i)) covering.push_back(o);
    if (!covering.empty()) groups[covering].push_back(i);
  }
  return groups;
}

// The derived keys an instance of a group derives again from its own
// values: a spine's credit window covers its own traversal.
bool derived_per_instance(const std::string& group, const std::string& key) {
  return group == "spine" && key == "spine.buffer_packets";
}

// "3", "0-7,12": the selector of these instances.
std::string selector_of(const std::vector<int>& members) {
  const std::string text = instances_text("", "", members);
  return text.substr(1);  // instances_text's " 3", " 0-7,12"
}

// An instance's view with the class-wide run's derived values in place of
// `auto`, but for those the group derives per instance: the fabric-wide keys
// derived once hold for every instance, and the instance's checks test its
// values against them.
config::Config with_class_derivations(config::Config view, const config::Config& config, const std::string& group) {
  for (const auto& [key, derived] : config.notes().derived_values())
    if (key.find('[') == std::string::npos && !derived_per_instance(group, key)) view.set(key, derived.value);
  return view;
}

config::Config view_of(const config::Config& config, const std::string& group, int first) {
  return with_class_derivations(config.instance_view(group, first), config, group);
}

template <class Read>
void resolve_group(const config::Config& config, const std::string& group, const std::string& one,
                   const std::string& many, int count, Read&& read) {
  const std::vector<config::InstanceOverride> overrides = config.instance_overrides(group);
  check_range(config, overrides, count, many);
  for (const auto& [covering, members] : by_overrides(overrides, count)) {
    const config::Config view = view_of(config, group, members.front());
    {
      const config::ParamScope reading(view);
      FabricKeys keys;
      read(keys, view, members);
    }
    config.adopt_instance_checks(view, instances_text(one, many, members));
    config.adopt_instance_derivations(view, group, selector_of(members));
  }
}

}  // namespace

void declare_fabric_instance_groups(config::ParamRegistry& r) {
  config::InstanceGroup leaf;
  leaf.name = "leaf";
  leaf.instances = "leaf indices (0 .. topology's leaves - 1)";
  leaf.fabric_wide = {"leaf.packet_bytes",      "leaf.control_bytes",           "leaf.concurrent_header",
                      "leaf.traversal_latency", "leaf.downlink_buffer_packets", "leaf.e2e.retransmit",
                      "leaf.e2e.timeout",       "leaf.voq.dropped_copy_credit"};
  leaf.fabric_wide_why =
      "other units read it too: the cell size of spines and links, the links' messages, the spines' credit windows, "
      "the derived timeouts and the delivery bound";
  r.declare_group(leaf);

  config::InstanceGroup spine;
  spine.name = "spine";
  spine.instances = "spine indices (0 .. spines - 1)";
  spine.fabric_wide = {"spine.ports"};
  spine.fabric_wide_why = "the geometry: each leaf takes one port of every spine";
  r.declare_group(spine);

  config::InstanceGroup cna;
  cna.name = "cna";
  cna.instances = "user port indices (0 .. user ports - 1; port p is leaf p / ports per leaf's)";
  cna.fabric_wide = {"cna.e2e.retransmit", "cna.e2e.priorities", "cna.e2e.timeout",
                     "cna.e2e.ack_every",  "cna.e2e.ack_delay",  "cna.e2e.nak_retry"};
  cna.fabric_wide_why = "the CNAs' transport is one protocol between every pair of CNAs";
  r.declare_group(cna);

  config::InstanceGroup link;
  link.name = "link";
  link.by_name = true;
  link.instances = kLinkNames;
  link.listed_rests = {"errors.ber", "errors.packet_probability", "gbps"};
  // Every class's errors.* keys have the same declaration: the leaf-spine
  // one checks the value; the link's own class is read from its name. A
  // link's rate refines topology.uplink_gbps (leaf-spine links only).
  link.class_key = [](const std::string& rest) {
    if (rest == "gbps") return std::string(kUplinkRateKey);
    return rest == "errors.ber" || rest == "errors.packet_probability" ? "errors.leaf_spine." + rest.substr(7)
                                                                       : std::string();
  };
  link.instance_class_key = [](const std::string& name, const std::string& rest) {
    const LinkClass cls = link_class_of(name);
    if (rest == "gbps") return std::string(cls == LinkClass::cna_leaf ? "topology.user_port_gbps" : kUplinkRateKey);
    const char* prefix = cls == LinkClass::cna_leaf     ? "errors.cna_leaf."
                         : cls == LinkClass::leaf_spine ? "errors.leaf_spine."
                                                        : "errors.spine_leaf.";
    return prefix + rest.substr(7);  // "errors.ber" -> errors.CLASS.ber
  };
  r.declare_group(link);
}

LeafParams finish_leaf_params(const LeafKeys& keys, LeafParams leaf, const TopologyParams& topology,
                              const std::vector<traffic::FlowSpec>& flows) {
  apply_lossless_limits(keys, leaf, cna_pause_round_trip(topology, leaf), traffic::kMaxFrameBytes,
                        lossless_headers_per_frame(flows, leaf));
  PauseRoundTrip behind_a_frame = cna_pause_round_trip(topology, leaf);
  const uint32_t largest_on_wire = traffic::kMaxFrameBytes + behind_a_frame.overhead_bytes;
  behind_a_frame.wait = static_cast<Picos>(std::ceil(wire_ps(largest_on_wire, behind_a_frame.link_gbps)));
  // Without the concurrent header a frame is admitted once it is all in.
  if (!leaf.concurrent_header) behind_a_frame.header_after_bytes = largest_on_wire;
  leaf.pause_obeyed_within = static_cast<Picos>(std::ceil(pause_window_ps(behind_a_frame))) + 1;
  return leaf;
}

void add_link_error_overrides(const config::Config& config, LinkErrorParams& errors, const Geometry& geometry) {
  for (const config::InstanceOverride& o : config.instance_overrides("link")) {
    if (is_rate(o)) continue;
    for (const std::string& name : selected_links(config, o, geometry)) {
      const LinkClass cls = link_class_of(name);
      auto own = errors.by_link.find(name);
      if (own == errors.by_link.end())
        own = errors.by_link
                  .emplace(name, cls == LinkClass::cna_leaf     ? errors.cna_leaf
                                 : cls == LinkClass::leaf_spine ? errors.leaf_spine
                                                                : errors.spine_leaf)
                  .first;
      const double value = config::parse_real(o.key, o.value);
      if (o.class_key.size() >= 4 && o.class_key.compare(o.class_key.size() - 4, 4, ".ber") == 0) {
        own->second.bit_error_rate = value;
      } else {
        own->second.packet_error_probability = value;
      }
    }
  }
}

namespace {

// link[..].gbps: the leaf-spine links given a rate of their own, read (and
// checked: the credit windows, the retry buffer and timeout, the traffic's
// bounds) as the class-wide rate is, from a view with the link's value.
void resolve_link_rates(const config::Config& config, FabricConfig& f, const InstanceInputs& in) {
  std::vector<config::InstanceOverride> rates;
  for (const config::InstanceOverride& o : config.instance_overrides("link"))
    if (is_rate(o)) rates.push_back(o);
  // The links, grouped by the overrides that select them (those share a rate).
  std::map<std::string, std::vector<size_t>> covering_of;
  for (size_t i = 0; i < rates.size(); ++i) {
    for (const std::string& name : selected_links(config, rates[i], f.topology.geometry)) {
      if (link_class_of(name) == LinkClass::cna_leaf)
        config.fail(rates[i].key, "leaf-spine and spine-leaf links ('" + name +
                                      "' is a CNA's link: it runs at topology.user_port_gbps, which the CNA's "
                                      "pacing and rate limiters read too)");
      covering_of[name].push_back(i);
    }
  }
  std::map<std::vector<size_t>, std::vector<std::string>> groups;
  for (const auto& [name, covering] : covering_of) groups[covering].push_back(name);
  for (const auto& [covering, names] : groups) {
    const config::Config view = with_class_derivations(config.instance_view("link", names.front()), config, "link");
    {
      const config::ParamScope reading(view);
      FabricKeys k;
      const TopologyParams t = read_topology_params(k.topology, static_cast<int>(k.spine.ports.value()));
      check_fabric_keys(k, t, in.sim_time, view);
      check_traffic_bounds(k, t, f.leaf, *in.demand, view);
      for (const std::string& name : names) f.link_gbps[name] = t.fabric_link.rate_gbps;
    }
    std::string label;
    for (size_t i : covering) label += (label.empty() ? "" : ", ") + rates[i].key;
    config.adopt_instance_checks(view, label);
  }
}

}  // namespace

void resolve_fabric_instances(const config::Config& config, FabricConfig& f, const InstanceInputs& in) {
  const Geometry& g = f.topology.geometry;
  resolve_group(config, "leaf", "leaf", "leaves", g.leaves,
                [&](const FabricKeys& k, const config::Config& view, const std::vector<int>& members) {
                  check_fabric_keys(k, f.topology, in.sim_time, view);
                  const LeafParams leaf =
                      finish_leaf_params(k.leaf, read_leaf_params(k.leaf, in.stall_timeout), f.topology, *in.flows);
                  check_traffic_bounds(k, f.topology, leaf, *in.demand, view);
                  for (int l : members) f.leaf_instances[l] = leaf;
                });
  resolve_group(config, "spine", "spine", "spines", g.spines,
                [&](FabricKeys& k, const config::Config& view, const std::vector<int>& members) {
                  derive_spine_window(k, f.topology);
                  check_fabric_keys(k, f.topology, in.sim_time, view);
                  check_traffic_bounds(k, f.topology, f.leaf, *in.demand, view);
                  const SpineParams spine = read_spine_params(k.spine);
                  for (int s : members) f.spine_instances[s] = spine;
                });
  resolve_group(config, "cna", "cna", "CNAs", g.user_ports(),
                [&](const FabricKeys& k, const config::Config&, const std::vector<int>& members) {
                  CnaParams cna = read_cna_params(k.cna);
                  cna.scale_to_line(f.topology.cna_link.rate_gbps);
                  for (int p : members) f.cna_instances[p] = cna;
                });
  add_link_error_overrides(config, f.errors, g);
  resolve_link_rates(config, f, in);
}

}  // namespace fabric
