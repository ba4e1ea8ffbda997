#pragma once
// ring.* keys: QuickRing rings of platforms.md, E14: the stations and their
// segments, the groups and who sends, the flow control's mechanisms, and
// the offered load over time (with traffic.load_gbps and traffic.arrival).
#include <cstdint>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/link/link.h"
#include "model/ring/ring_bridge.h"
#include "model/ring/ring_network.h"
#include "model/ring/ring_station.h"
#include "traffic/arrival_process.h"
#include "traffic/flow_times.h"

namespace fabric {

enum class RingPattern { all_to_all, one_to_all };
const char* to_string(RingPattern pattern);

struct RingConfig {
  int rings = 1;      // joined by bridges in a binary tree
  int stations = 16;  // host stations a ring
  int group_count = 3;
  int group_size = 5;
  RingPattern pattern = RingPattern::all_to_all;
  RingStationParams station;  // its permit interval and observation window are set per run
  RingBridgeParams bridge;
  LinkParams segment;
  double load_gbps = 1.0;      // aggregate payload offered
  std::vector<traffic::Phased<double>> load_schedule;           // phases of another load (Gb/s)
  std::vector<traffic::Phased<RingPattern>> pattern_schedule;   // phases of another pattern
  traffic::Arrival arrival = traffic::Arrival::cbr;

  // Who sends at `t`, and the aggregate load offered then.
  RingPattern pattern_at(Picos t) const;
  double load_at(Picos t) const;
  int senders(RingPattern p) const {
    return p == RingPattern::all_to_all ? rings * group_count * group_size : group_count;
  }
  // A ticket's trip around a ring of `positions` with nothing in its way.
  Picos ticket_round_trip(int positions) const;
  // The rings, their bridges and the groups (every member may send when
  // the pattern or a phase of it is all-to-all).
  ring::RingNetwork network() const;
};

void declare_ring_params(config::ParamRegistry& registry);
// Throws ConfigError naming the key at fault.
RingConfig read_ring_params(const config::Config& config);

}  // namespace fabric
