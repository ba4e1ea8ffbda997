#pragma once
// What the configured traffic offers each fabric resource, for the checks
// before the run (traffic_bounds.h): the bytes each leaf sends to and
// receives from other leaves, each port's remote bytes, and the busiest
// source-destination pair across leaves. Frame bytes per second, without
// Ethernet's 20 B per frame (what fabric packets carry), as offered: a
// unicast flow's rate shared evenly by its destinations, a multicast flow's
// on every branch of its replication tree, a closed-loop flow at its link's
// rate.
#include <vector>

#include "model/core/geometry.h"
#include "platforms/fabric/multicast_groups.h"
#include "traffic/flow_spec.h"

namespace fabric {

struct TrafficDemand {
  std::vector<double> leaf_out_gbps;         // each leaf to other leaves (its uplinks together)
  std::vector<double> leaf_in_gbps;          // each leaf from other leaves (its downlinks together)
  std::vector<double> port_remote_in_gbps;   // each user port, from other leaves
  std::vector<double> port_remote_out_gbps;  // each user port, to other leaves
  std::vector<bool> port_sends_lossless;     // whether any of that is of a lossless priority
  double lossy_pair_gbps = 0;                // the most one port offers one port on another leaf, lossy
  double lossless_port_out_gbps = 0;         // the most one port offers other leaves, lossless
  double lossless_port_headers_per_us = 0;  // the most headers one port admits per us, lossless (one per copy it makes)
  double lossless_headers_per_byte = 0;     // at that port: headers per byte of its lossless frames
  uint32_t largest_lossy_frame = 0;         // the largest frame a lossy flow to another leaf may send
  int most_remote_senders = 0;              // the most ports of one leaf that send to other leaves

  double busiest(const std::vector<double>& v) const;
};

TrafficDemand traffic_demand(const std::vector<traffic::FlowSpec>& flows, const Geometry& g,
                             const MulticastGroups& groups, double cna_gbps, uint8_t lossless_priorities);

}  // namespace fabric
