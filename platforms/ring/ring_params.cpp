#include "platforms/ring/ring_params.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/config/split.h"
#include "model/config/text_scanner.h"
#include "model/core/sim_time.h"
#include "model/ring/ring_frame.h"
#include "traffic/traffic_params.h"

namespace fabric {

using config::ParamSpec;
using config::ParamType;

namespace {

constexpr int kMaxStations = 32;  // a ticket's map has a bit per station
const char* const kGroupsAllowed = "COUNTxSIZE, groups of SIZE >= 2 contiguous stations, such as 3x5";
const char* const kPatterns = "all-to-all or one-to-all";

struct GroupShape {
  int count;
  int size;
};

GroupShape parse_groups(const std::string& key, const std::string& text) {
  return config::parse_or_fail(key, text, kGroupsAllowed, [&] {
    const std::string t = config::trim(text);
    const size_t x = t.find('x');
    char* end = nullptr;
    const long count = x == std::string::npos ? 0 : std::strtol(t.c_str(), &end, 10);
    if (x == std::string::npos || end != t.c_str() + x || count < 1) throw config::SyntaxError("'" + t + "' is not COUNTxSIZE");
    const long size = std::strtol(t.c_str() + x + 1, &end, 10);
    if (*end != '\0' || size < 2) throw config::SyntaxError("'" + t + "': groups of at least 2 stations");
    if (count * size > kMaxStations) throw config::SyntaxError("'" + t + "' is more stations than a ring has");
    return GroupShape{static_cast<int>(count), static_cast<int>(size)};
  });
}

// A pattern's name, checked where it was read (ring.pattern's choices, the
// schedule's phases).
RingPattern pattern_named(const std::string& text) {
  return text == "one-to-all" ? RingPattern::one_to_all : RingPattern::all_to_all;
}

ParamSpec boolean(const std::string& key, const std::string& description) {
  return {key, ParamType::boolean, "false", "", description};
}

}  // namespace

const char* to_string(RingPattern pattern) {
  return pattern == RingPattern::all_to_all ? "all-to-all" : "one-to-all";
}

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
  return ring::build_ring_network(rings, stations, group_count, group_size, every_member);
}

void declare_ring_params(config::ParamRegistry& r) {
  r.declare({"ring.rings", ParamType::integer, "1", "",
             "rings, joined by bridges in a binary tree (ring r > 0 hangs from ring (r - 1) / 2); every group has "
             "its block of stations on every ring",
             1, 15});
  r.declare({"ring.stations", ParamType::integer, "16", "",
             "host stations a ring (its bridge controllers come on top; at most 32 positions a ring)", 2,
             kMaxStations});
  r.declare(config::text_param("ring.groups", "3x5", "",
                               std::string("multicast groups: ") + kGroupsAllowed +
                                   ", from station 0 on (the stations beyond them idle)",
                               config::syntax_of<parse_groups>(kGroupsAllowed)));
  {
    ParamSpec s{"ring.pattern", ParamType::choice, "all-to-all", "",
                "who sends to each group: every member (all-to-all) or its first station (one-to-all)"};
    s.choices = {"all-to-all", "one-to-all"};
    r.declare(s);
  }
  r.declare({"ring.buffers", ParamType::integer, "20", "", "receive buffers per station (B)", 1, 10000});
  r.declare({"ring.segment_gbps", ParamType::rate, "1.6", "Gb/s", "data rate of every segment", 0.001, 1000});
  r.declare({"ring.segment_delay", ParamType::duration, "0", "ps", "flight time on a segment", 0, 1e9});
  r.declare({"ring.station_latency", ParamType::duration, "100ns", "ps",
             "cut through: from a frame's first byte at a station to its forwarding", 1, 1e9});
  r.declare({"ring.q", ParamType::integer, "0", "packets",
             "fixed SPQ limit q: packets a sender has in reservation at once; 0: no limit", 0, 10000});
  r.declare(boolean("ring.q_adaptive", "the adaptive SPQ limit (1b) instead of ring.q"));
  r.declare(boolean("ring.delayed_retry",
                    "delayed retry (2a): retries wait in a priority queue released by permits, one per packet "
                    "inter-arrival time"));
  r.declare(boolean("ring.backoff", "exponential back-off (2b): the n-th retry waits D0 e^(d n), n <= 10"));
  r.declare({"ring.backoff_d0", ParamType::duration, "0", "ps",
             "back-off D0; 0: one ticket round trip of the ring", 0, 1e12});
  r.declare({"ring.backoff_d", ParamType::real, "0.693147", "", "back-off d (ln 2: doubling)", 0, 10});
  r.declare(boolean("ring.free_on_receipt",
                    "free a receive buffer when its packet is in rather than when it is delivered in order"));
  r.declare({"ring.bridge_buffers", ParamType::integer, "40", "", "a bridge's buffers on each side (4b)", 1, 10000});
  r.declare(boolean("ring.bridge_fc",
                    "bridge flow control (3a, 3b): the tickets a bridge launches beyond are paced by delayed retry "
                    "and exponential back-off, with the bridge's constants"));
  r.declare({"ring.bridge_backoff_d0", ParamType::duration, "0", "ps",
             "a bridge's back-off D0; 0: one ticket round trip of a ring", 0, 1e12});
  r.declare({"ring.bridge_backoff_d", ParamType::real, "0.693147", "", "a bridge's back-off d", 0, 10});
  r.declare(config::text_param("traffic.load_schedule", "", "",
                               "platform ring: phases of another aggregate load, FROM-TO:GBPS (a burst: "
                               "2ms-4ms:2.5); "
                               "traffic.load_gbps outside them",
                               traffic::phases_syntax()));
  r.declare(config::text_param("ring.pattern_schedule", "", "",
                               std::string("phases of another pattern, FROM-TO:PATTERN with PATTERN ") + kPatterns +
                                   "; ring.pattern outside them",
                               traffic::phases_syntax()));
}

RingConfig read_ring_params(const config::Config& c) {
  RingConfig b;
  b.rings = static_cast<int>(c.get_int("ring.rings"));
  b.stations = static_cast<int>(c.get_int("ring.stations"));
  const GroupShape g = parse_groups("ring.groups", c.get_text("ring.groups"));
  b.group_count = g.count;
  b.group_size = g.size;
  if (g.count * g.size > b.stations)
    c.fail("ring.groups", "groups within the ring's " + std::to_string(b.stations) + " stations (ring.stations)");
  b.pattern = pattern_named(c.get_choice("ring.pattern"));
  b.segment.rate_gbps = c.get_rate_gbps("ring.segment_gbps");
  b.segment.propagation = from_ps(c.get_duration("ring.segment_delay"));
  b.segment.overhead_bytes = 0;
  b.segment.concurrent_header = true;  // cut through: a station sees a frame from its first byte
  b.segment.lead_bytes = 0;
  RingStationParams& s = b.station;
  s.latency = c.get_duration("ring.station_latency");
  s.buffers = static_cast<int>(c.get_int("ring.buffers"));
  s.members = g.size;
  s.free_on_receipt = c.get_bool("ring.free_on_receipt");
  s.q = static_cast<int>(c.get_int("ring.q"));
  s.q_adaptive = c.get_bool("ring.q_adaptive");
  s.pacer.delayed_retry = c.get_bool("ring.delayed_retry");
  s.pacer.backoff = c.get_bool("ring.backoff");
  s.pacer.backoff_d = c.get_real("ring.backoff_d");
  int bridges = 0;
  for (int r = 0; r < b.rings; ++r) bridges = std::max(bridges, ring::bridges_on_ring(b.rings, r));
  const int positions = b.stations + bridges;
  if (positions > ring::RingLayout::kMaxPositions)
    c.fail("ring.stations", "at most " + std::to_string(ring::RingLayout::kMaxPositions - bridges) +
                                " with ring.rings = " + std::to_string(b.rings) + " (" + std::to_string(bridges) +
                                " bridge controllers on a ring; a ticket's map has 32 bits)");
  const Picos round_trip = b.ticket_round_trip(positions);
  const Picos d0 = c.get_duration("ring.backoff_d0");
  s.pacer.backoff_d0 = d0 > 0 ? d0 : round_trip;
  s.observe_every = round_trip;
  RingBridgeParams& br = b.bridge;
  br.latency = s.latency;
  br.buffers = static_cast<int>(c.get_int("ring.bridge_buffers"));
  br.flow_control = c.get_bool("ring.bridge_fc");
  br.pacer.delayed_retry = br.flow_control;
  br.pacer.backoff = br.flow_control;
  br.pacer.backoff_d = c.get_real("ring.bridge_backoff_d");
  const Picos bridge_d0 = c.get_duration("ring.bridge_backoff_d0");
  br.pacer.backoff_d0 = bridge_d0 > 0 ? bridge_d0 : round_trip;
  b.load_gbps = c.is_set("traffic.load_gbps") ? c.get_rate_gbps("traffic.load_gbps") : 1.0;
  if (b.load_gbps <= 0) c.fail("traffic.load_gbps", "an aggregate payload load above 0 Gb/s");
  b.arrival = traffic::read_arrival(c, "traffic.arrival");
  for (const traffic::Phase& p : traffic::parse_phases("traffic.load_schedule", c.get_text("traffic.load_schedule"))) {
    char* end = nullptr;
    const double v = std::strtod(p.value.c_str(), &end);
    if (*end != '\0' || !(v > 0) || v > 1000)
      c.fail("traffic.load_schedule", "phases FROM-TO:GBPS with GBPS in (0, 1000]; '" + p.value + "' is not");
    b.load_schedule.push_back({p.from, p.to, v});
  }
  for (const traffic::Phase& p :
       traffic::parse_phases("ring.pattern_schedule", c.get_text("ring.pattern_schedule"))) {
    if (p.value != "all-to-all" && p.value != "one-to-all")
      c.fail("ring.pattern_schedule", std::string("phases FROM-TO:PATTERN with PATTERN ") + kPatterns + "; '" +
                                          p.value + "' is neither");
    b.pattern_schedule.push_back({p.from, p.to, pattern_named(p.value)});
  }
  return b;
}

}  // namespace fabric
