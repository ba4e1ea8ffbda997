#pragma once
// One traffic flow as configured: a source port sending frames to one or more
// destination ports: a unicast flow sends each frame to one of them, drawn
// uniformly; a multicast flow sends every frame to all of them (its group).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/core/ids.h"
#include "model/multicast/replication_tree.h"
#include "traffic/arrival_process.h"
#include "traffic/frame_size.h"
#include "traffic/message_size.h"

namespace fabric::traffic {

// Ethernet preamble + start delimiter (8 B) and inter-frame gap (12 B): every
// frame occupies this much more than its bytes on the wire.
constexpr uint32_t kWireOverheadBytes = 20;

struct FlowSpec {
  FlowId id{};
  std::string name;  // flows.name in the database: "f1", "p17", "u3" ...
  PortId src{};
  bool multicast = false;
  std::string tree = "generic";  // multicast: generic, affinity or explicit
  std::string explicit_tree;     // multicast, explicit: "PORT:T1,T2;PORT:..." as given
  TreeFanout explicit_fanout;    // ... as parsed (parse_tree_fanout)
  std::vector<PortId> dests;     // unicast: each frame to one, drawn uniformly; multicast: the group
  double rate_gbps = 100;        // offered rate counting kWireOverheadBytes per frame
  FrameSizeDistribution size;
  int priority = 0;
  Picos start = 0;  // first frame created at start
  Picos stop = -1;  // frames are created while created < stop; -1 = never stops
  // On-intervals [from, to): the flow switches on and off on this schedule
  // (start and stop are then the first `from` and the last `to`). Empty: one
  // interval, [start, stop).
  std::vector<std::pair<Picos, Picos>> schedule;
  uint64_t max_frames = 0;         // 0 = unlimited
  Arrival arrival = Arrival::cbr;  // constant spacing, or Poisson with the same mean
  // random: each on-interval's first frame comes at the flow's phase, drawn
  // once in [0, period), after the interval's start. A flow of one frame
  // (max_frames = 1) has no period: it is created exactly at start.
  StartPhase phase = StartPhase::random;
  // Application messages, each to one destination drawn per message, sent
  // as frames (MessageFrames); unset: each frame is drawn on its own.
  std::optional<MessageSizeDistribution> message;
  // Saturated and closed loop: the application makes its next frame when
  // its end station has room for it; rate_gbps, arrival and phase unused.
  bool closed_loop = false;
  // A job's flow (traffic/jobs/): its frames are made by the job's ranks,
  // closed loop; the spec only names them and their destinations, and
  // max_frames counts the frames the job sends under it.
  bool job = false;
};

}  // namespace fabric::traffic
