#include "platforms/ring/ring_params.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "config/split.h"
#include "config/text_scanner.h"
#include "model/core/sim_time.h"
#include "model/ring/flow_control.h"
#include "model/ring/ring_frame.h"
#include "platforms/common/quantity_text.h"
#include "traffic/traffic_params.h"

namespace fabric {

const char* const kRingGroupsAllowed = "COUNTxSIZE, groups of SIZE >= 2 contiguous stations, such as 3x5";
const char* const kRingPatterns = "all-to-all or one-to-all";
const char* const kRingGroupRingsAllowed =
    "a list of rings per group, the groups separated by ';' (Fig. 9(b): 0-1;0,2), each group's rings joined "
    "among themselves";

namespace {

struct GroupShape {
  int count;
  int size;
};

GroupShape parse_groups(const std::string& key, const std::string& text) {
  return config::parse_or_fail(key, text, kRingGroupsAllowed, [&] {
    const config::TextPair shape = config::scan_pair(text, 'x');
    const int64_t count = config::scan_integer(shape.left, 1, kRingMaxStations);
    const int64_t size = config::scan_integer(shape.right, 2, kRingMaxStations);
    if (count * size > kRingMaxStations)
      throw config::SyntaxError("'" + config::trim(text) + "' is more stations than a ring has (" +
                                std::to_string(kRingMaxStations) + ")");
    return GroupShape{static_cast<int>(count), static_cast<int>(size)};
  });
}

std::vector<std::vector<int>> parse_group_rings(const std::string& key, const std::string& text) {
  return config::parse_or_fail(key, text, kRingGroupRingsAllowed, [&] {
    std::vector<std::vector<int>> groups;
    const std::string t = config::trim(text);
    if (t.empty()) return groups;
    for (const std::string& part : config::split_on(t, ';')) {
      std::vector<int> rings;
      std::vector<int64_t> listed;
      try {
        listed = config::parse_int_list(key, part);
      } catch (const config::ConfigError& e) {  // named with the whole value (parse_or_fail)
        throw config::SyntaxError("'" + part + "': " + e.allowed);
      }
      for (const int64_t r : listed) {
        if (r < 0 || r > 14) throw config::SyntaxError("ring " + std::to_string(r) + ": rings are 0 to 14");
        rings.push_back(static_cast<int>(r));
      }
      if (rings.empty()) throw config::SyntaxError("a group with no ring");
      groups.push_back(rings);
    }
    return groups;
  });
}

// A pattern's name, checked where it was read (ring.pattern's choices, the
// schedule's phases).
RingPattern pattern_named(const std::string& text) {
  return text == "one-to-all" ? RingPattern::one_to_all : RingPattern::all_to_all;
}

}  // namespace

config::TextSyntax ring_groups_syntax() { return config::syntax_of<parse_groups>(kRingGroupsAllowed); }
config::TextSyntax ring_group_rings_syntax() { return config::syntax_of<parse_group_rings>(kRingGroupRingsAllowed); }

const char* to_string(RingPattern pattern) { return pattern == RingPattern::all_to_all ? "all-to-all" : "one-to-all"; }

RingPattern RingConfig::pattern_at(Picos t) const {
  const RingPattern* p = traffic::value_at(pattern_schedule, t);
  return p ? *p : pattern;
}

double RingConfig::load_at(Picos t) const {
  const double* gbps = traffic::value_at(load_schedule, t);
  return gbps ? *gbps : load_gbps;
}

Picos RingConfig::ticket_round_trip(int positions) const {
  const double header_ps = ring::kHeaderBytes * 8000.0 / segment.rate_gbps;
  return positions * (station.latency + to_ps(segment.propagation)) + static_cast<Picos>(header_ps);
}

ring::RingNetwork RingConfig::network() const {
  const bool every_member = pattern == RingPattern::all_to_all || !pattern_schedule.empty();
  return ring::build_ring_network({rings, stations, group_count, group_size, every_member, group_rings, sender_rings});
}

RingConfig read_ring_params(const RingKeys& k, const config::Config& c) {
  RingConfig b;
  b.rings = static_cast<int>(k.rings.value());
  b.stations = static_cast<int>(k.stations.value());
  const GroupShape g = parse_groups(k.groups.key(), k.groups.value());
  b.group_count = g.count;
  b.group_size = g.size;
  if (g.count * g.size > b.stations)
    k.groups.fail("groups within the ring's " + std::to_string(b.stations) + " stations (ring.stations)");
  b.pattern = pattern_named(k.pattern.value());
  b.group_rings = parse_group_rings(k.group_rings.key(), k.group_rings.value());
  for (const int64_t r : k.sender_rings.value()) b.sender_rings.push_back(static_cast<int>(r));
  b.segment.rate_gbps = k.segment_gbps.value();
  b.segment.propagation = from_ps(k.segment_delay.value());
  b.segment.overhead_bytes = 0;
  b.segment.concurrent_header = true;  // cut through: a station sees a frame from its first byte
  b.segment.lead_bytes = 0;
  RingStationParams& s = b.station;
  s.latency = k.station_latency.value();
  s.buffers = static_cast<int>(k.buffers.value());
  s.members = g.size;  // on one ring; the top sets each station's group's size over its rings
  s.free_on_receipt = k.free_on_receipt.value();
  s.own_frames = k.own_frames.value() == "data-first" ? ring::OwnFrames::data_first : ring::OwnFrames::control_first;
  s.q = static_cast<int>(k.q.value());
  s.q_adaptive = k.q_adaptive.value();
  s.host_queue = static_cast<size_t>(k.host_queue.value());
  s.pacer.delayed_retry = k.delayed_retry.value();
  s.pacer.backoff = k.backoff.value();
  s.pacer.backoff_d = k.backoff_d.value();
  int bridges = 0;
  for (int r = 0; r < b.rings; ++r) bridges = std::max(bridges, ring::bridges_on_ring(b.rings, r));
  const int positions = b.stations + bridges;
  if (positions > ring::RingLayout::kMaxPositions)
    k.stations.fail("at most " + std::to_string(ring::RingLayout::kMaxPositions - bridges) +
                    " with ring.rings = " + std::to_string(b.rings) + " (" + std::to_string(bridges) +
                    " bridge controllers on a ring; a ticket's map has 32 bits)");
  const Picos round_trip = b.ticket_round_trip(positions);
  const Picos d0 = k.backoff_d0.value();
  s.pacer.backoff_d0 = d0 > 0 ? d0 : round_trip;
  s.observe_every = round_trip;
  RingBridgeParams& br = b.bridge;
  br.latency = s.latency;
  br.buffers = static_cast<int>(k.bridge_buffers.value());
  br.flow_control = k.bridge_fc.value();
  br.pacer.delayed_retry = br.flow_control;
  br.pacer.backoff = br.flow_control;
  br.pacer.backoff_d = k.bridge_backoff_d.value();
  const Picos bridge_d0 = k.bridge_backoff_d0.value();
  br.pacer.backoff_d0 = bridge_d0 > 0 ? bridge_d0 : round_trip;
  // Where the groups sit and who sends: the network says whether it can be built.
  if (!b.group_rings.empty() && static_cast<int>(b.group_rings.size()) != b.group_count)
    k.group_rings.fail("one list of rings per group (" + std::to_string(b.group_count) + ", ring.groups)");
  for (const auto& rings : b.group_rings)
    for (const int r : rings)
      if (r >= b.rings) k.group_rings.fail("rings below ring.rings = " + std::to_string(b.rings));
  for (const int r : b.sender_rings)
    if (r >= b.rings) k.sender_rings.fail("rings below ring.rings = " + std::to_string(b.rings));
  try {
    b.every_sender = 0;
    for (const ring::RingGroup& g : ring::build_ring_network({b.rings, b.stations, b.group_count, b.group_size, true,
                                                              b.group_rings, b.sender_rings})
                                        .groups)
      b.every_sender += static_cast<int>(g.senders.size());
  } catch (const std::invalid_argument& e) {
    const std::string allowed = std::string("a placement the rings allow (") + e.what() + ")";
    if (b.group_rings.empty()) k.sender_rings.fail(allowed);
    k.group_rings.fail(allowed);
  }
  const config::ParamScope reading(c);
  const traffic::PatternKeys traffic;
  b.load_gbps = traffic.load_gbps.has_value() ? traffic.load_gbps.value() : 1.0;
  if (b.load_gbps <= 0) traffic.load_gbps.fail("an aggregate payload load above 0 Gb/s");
  b.arrival = traffic::arrival_named(traffic.arrival);
  for (const traffic::Phase& p : traffic::parse_phases(k.load_schedule.key(), k.load_schedule.value())) {
    const char* const allowed = "phases FROM-TO:GBPS with GBPS a decimal number in (0, 1000]";
    double v = 0;
    try {
      v = config::parse_real(k.load_schedule.key(), p.value);
    } catch (const config::ConfigError&) {
      k.load_schedule.fail(std::string(allowed) + "; '" + p.value + "' is not");
    }
    if (!(v > 0) || v > 1000) k.load_schedule.fail(std::string(allowed) + "; '" + p.value + "' is not");
    b.load_schedule.push_back({p.from, p.to, v});
  }
  for (const traffic::Phase& p : traffic::parse_phases(k.pattern_schedule.key(), k.pattern_schedule.value())) {
    if (p.value != "all-to-all" && p.value != "one-to-all")
      k.pattern_schedule.fail(std::string("phases FROM-TO:PATTERN with PATTERN ") + kRingPatterns + "; '" + p.value +
                              "' is neither");
    b.pattern_schedule.push_back({p.from, p.to, pattern_named(p.value)});
  }
  return b;
}

void check_backoff_fits(const RingKeys& k, const RingConfig& b, Picos sim_time) {
  const auto fits = [&](const ring::PacerParams& pacer, const auto& d_key, const char* d0_key) {
    if (!pacer.backoff) return;
    const Picos first = ring::backoff_wait(pacer.backoff_d0, pacer.backoff_d, 1);
    if (first <= sim_time) return;
    d_key.fail(std::string("a back-off whose first wait, ") + d0_key + " x e^d = " +
               (first == ring::kLongestBackoff ? std::string("beyond 2^62 ps") : std::to_string(first) + " ps") +
               ", fits in the run (sim.time " + std::to_string(sim_time) + " ps): a smaller d or " + d0_key);
  };
  fits(b.station.pacer, k.backoff_d, "ring.backoff_d0");
  fits(b.bridge.pacer, k.bridge_backoff_d, "ring.bridge_backoff_d0");
}

void check_ring_limit(const RingKeys& k, const RingConfig& b, const config::Config& c) {
  const RingStationParams& s = b.station;
  if (s.q_adaptive || s.q == 0) return;
  const bool all_to_all = b.pattern == RingPattern::all_to_all || !b.pattern_schedule.empty();
  // The most other senders that hold a member's buffers: every sender of its
  // group but itself (a member that does not send: all of them).
  int holders = 1, members = 0;
  if (all_to_all) {
    for (const ring::RingGroup& g : b.network().groups) {
      const int others = static_cast<int>(g.senders.size()) - (g.senders.size() == g.members.size() ? 1 : 0);
      if (others >= holders) {
        holders = others;
        members = static_cast<int>(g.members.size());
      }
    }
  } else {
    members = static_cast<int>(b.network().groups.front().members.size());
  }
  c.note_check({"ring.q x the other senders of a group <= ring.buffers",
                {k.q.key(), k.buffers.key(), k.groups.key(), k.pattern.key()},
                int64_t{s.q} * holders <= s.buffers,
                k.q.key() + " " + std::to_string(s.q) + " x " + std::to_string(holders) + " other sender" +
                    (holders == 1 ? "" : "s") + " of a group of " + std::to_string(members) + " (" +
                    (all_to_all ? "all-to-all" : "one-to-all") + ") = " + std::to_string(int64_t{s.q} * holders) +
                    " > " + k.buffers.key() + " " + std::to_string(s.buffers) +
                    ": the reservations a member is asked for do not fit its buffers, so tickets fail and retract "
                    "(platforms.md, flow control 1a)"});
}

}  // namespace fabric
