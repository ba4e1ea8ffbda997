#pragma once
// ring.* keys, each declared once (config/param.h): QuickRing rings of
// platforms.md, E14: the stations and their segments, the groups and who
// sends, the flow control's mechanisms, and the offered load over time (with
// traffic.load_gbps and traffic.arrival); the platform's parameters read
// from them, and its check of the SPQ limit against the buffers.
#include <cstdint>
#include <string>
#include <vector>

#include "config/param.h"
#include "model/link/link.h"
#include "model/ring/ring_bridge.h"
#include "model/ring/ring_network.h"
#include "model/ring/ring_station.h"
#include "traffic/arrival_process.h"
#include "traffic/flow_times.h"
#include "traffic/traffic_params.h"

namespace fabric {

enum class RingPattern { all_to_all, one_to_all };
const char* to_string(RingPattern pattern);

constexpr int kRingMaxStations = 32;  // a ticket's map has a bit per station
extern const char* const kRingGroupsAllowed;
extern const char* const kRingPatterns;
extern const char* const kRingGroupRingsAllowed;
config::TextSyntax ring_groups_syntax();
config::TextSyntax ring_group_rings_syntax();

struct RingKeys {
  config::Param<config::Integer> rings{
      "ring.rings",
      "1",
      "",
      "rings, joined by bridges in a binary tree (ring r > 0 hangs from ring (r - 1) / 2); every group has "
      "its block of stations on every ring",
      1,
      15};
  config::Param<config::Integer> stations{
      "ring.stations",
      "16",
      "",
      "host stations a ring (its bridge controllers come on top; at most 32 positions a ring)",
      2,
      kRingMaxStations};
  config::Param<config::Text> groups{
      "ring.groups", "3x5", "",
      std::string("multicast groups: ") + kRingGroupsAllowed +
          ", from station 0 on (the stations beyond them idle); SIZE stations on each of a group's rings",
      ring_groups_syntax()};
  config::Param<config::Text> group_rings{"ring.group_rings", "", "",
                                          std::string("the rings each group has its block of stations on: ") +
                                              kRingGroupRingsAllowed + "; empty: every group on every ring",
                                          ring_group_rings_syntax()};
  config::Param<config::IntList> sender_rings{
      "ring.sender_rings",
      "",
      "",
      "the rings whose group members send (the document's Fig. 9(c): the centre ring 0 only); empty: every ring",
      0,
      14};
  config::Param<config::Choice> pattern{
      "ring.pattern",
      "all-to-all",
      "who sends to each group: every member (all-to-all) or its first station (one-to-all)",
      {"all-to-all", "one-to-all"}};
  config::Param<config::Integer> buffers{"ring.buffers", "20", "", "receive buffers per station (B)", 1, 10000};
  config::Param<config::Rate> segment_gbps{"ring.segment_gbps",          "1.6", "Gb/s",
                                           "data rate of every segment", 0.001, 1000};
  config::Param<config::Duration> segment_delay{"ring.segment_delay", "0", "ps", "flight time on a segment", 0, 1e9};
  config::Param<config::Duration> station_latency{
      "ring.station_latency",
      "100ns",
      "ps",
      "cut through: from a frame's first byte at a station to its forwarding",
      1,
      1e9};
  config::Param<config::Integer> q{
      "ring.q", "0",  "packets", "fixed SPQ limit q: packets a sender has in reservation at once; 0: no limit",
      0,        10000};
  config::Param<config::Integer> host_queue{
      "ring.host_queue",
      "4096",
      "packets",
      "packets a sender's host holds waiting for its SPQ; an arrival beyond them is dropped (drops, reason host_queue)",
      1,
      1e7};
  config::Param<config::Boolean> q_adaptive{"ring.q_adaptive", "false", "",
                                            "the adaptive SPQ limit (1b) instead of ring.q"};
  config::Param<config::Boolean> delayed_retry{
      "ring.delayed_retry", "false", "",
      "delayed retry (2a): retries wait in a priority queue released by permits, one per packet "
      "inter-arrival time"};
  config::Param<config::Boolean> backoff{"ring.backoff", "false", "",
                                         "exponential back-off (2b): the n-th retry waits D0 e^(d n), n <= 10"};
  config::Param<config::Duration> backoff_d0{
      "ring.backoff_d0", "0", "ps", "back-off D0; 0: one ticket round trip of the ring", 0, 1e12};
  config::Param<config::Real> backoff_d{"ring.backoff_d", "0.693147", "", "back-off d (ln 2: doubling)", 0, 10};
  config::Param<config::Choice> own_frames{
      "ring.own_frames",
      "control-first",
      "the order of a station's own frames once no transit frame waits: retracts and retract requests, then tickets in "
      "SPQ order, then data (control-first, platforms.md), or data before tickets (data-first)",
      {"control-first", "data-first"}};
  config::Param<config::Boolean> free_on_receipt{
      "ring.free_on_receipt", "false", "",
      "free a receive buffer when its packet is in rather than when it is delivered in order"};
  config::Param<config::Integer> bridge_buffers{
      "ring.bridge_buffers", "40", "", "a bridge's buffers on each side (4b)", 1, 10000};
  config::Param<config::Boolean> bridge_fc{
      "ring.bridge_fc", "false", "",
      "bridge flow control (3a, 3b): the tickets a bridge launches beyond are paced by delayed retry "
      "and exponential back-off, with the bridge's constants"};
  config::Param<config::Duration> bridge_backoff_d0{
      "ring.bridge_backoff_d0", "0", "ps", "a bridge's back-off D0; 0: one ticket round trip of a ring", 0, 1e12};
  config::Param<config::Real> bridge_backoff_d{"ring.bridge_backoff_d", "0.693147", "", "a bridge's back-off d", 0, 10};
  config::Param<config::Text> load_schedule{"traffic.load_schedule", "", "",
                                            "platform ring: phases of another aggregate load, FROM-TO:GBPS (a burst: "
                                            "2ms-4ms:2.5); traffic.load_gbps outside them",
                                            traffic::phases_syntax()};
  config::Param<config::Text> pattern_schedule{"ring.pattern_schedule", "", "",
                                               std::string("phases of another pattern, FROM-TO:PATTERN with PATTERN ") +
                                                   kRingPatterns + "; ring.pattern outside them",
                                               traffic::phases_syntax()};
};

struct RingConfig {
  int rings = 0;     // joined by bridges in a binary tree
  int stations = 0;  // host stations a ring
  int group_count = 0;
  int group_size = 0;
  std::vector<std::vector<int>> group_rings;  // by group, its rings; empty: every group on every ring
  std::vector<int> sender_rings;              // empty: every ring
  int every_sender = 0;                       // stations that send all-to-all
  RingPattern pattern = RingPattern::all_to_all;
  RingStationParams station;  // its permit interval and observation window are set per run
  RingBridgeParams bridge;
  LinkParams segment;
  double load_gbps = 0;                                        // aggregate payload offered
  std::vector<traffic::Phased<double>> load_schedule;          // phases of another load (Gb/s)
  std::vector<traffic::Phased<RingPattern>> pattern_schedule;  // phases of another pattern
  traffic::Arrival arrival = traffic::Arrival::cbr;

  // Who sends at `t`, and the aggregate load offered then.
  RingPattern pattern_at(Picos t) const;
  double load_at(Picos t) const;
  int senders(RingPattern p) const { return p == RingPattern::all_to_all ? every_sender : group_count; }
  // A ticket's trip around a ring of `positions` with nothing in its way.
  Picos ticket_round_trip(int positions) const;
  // The rings, their bridges and the groups (every member may send when
  // the pattern or a phase of it is all-to-all).
  ring::RingNetwork network() const;
};

// Throws ConfigError naming the key at fault; `config` for the traffic.*
// keys the ring reads.
RingConfig read_ring_params(const RingKeys& keys, const config::Config& config);
// A fixed SPQ limit q must let every sender of a group hold q reservations
// at every member at once: q (m - 1) <= B all-to-all, q <= B one-to-all
// (platforms.md, 1a); a warning otherwise, noted in `config`.
// A back-off whose first retry's wait already outlasts the run is refused,
// naming ring.backoff_d (ring.bridge_backoff_d): no retry would ever be sent.
void check_backoff_fits(const RingKeys& k, const RingConfig& b, Picos sim_time);
void check_ring_limit(const RingKeys& keys, const RingConfig& b, const config::Config& config);

}  // namespace fabric
