#pragma once
// spine.* keys, each declared once (config/param.h), and the spine's parameters.
#include <systemc>

#include "config/param.h"

namespace fabric {

struct SpineKeys {
  config::Param<config::Integer> ports{
      "spine.ports", "136", "ports", "ports of a spine (one per leaf; more leaves than ports is an error)", 1, 4096};
  config::Param<config::Integer> buffer_packets{
      "spine.buffer_packets",
      config::Derived{"16",
                      "max(the spec's 16, 1.5 x the packets a leaf-spine link sends in its credit round trip: 2 x the "
                      "cable's flight + a packet each way + spine.traversal_latency + link.credit_delay + a credit "
                      "message) (docs/model.md, Derived keys)"},
      "packets",
      "input buffer and output buffer per spine port; the input buffer is the credit window of the leaf's uplink",
      1,
      1024};
  config::Param<config::Duration> traversal{"spine.traversal_latency",
                                            "44ns",
                                            "ps",
                                            "pipeline latency through a spine (with 50 ns leaves and 200 ns cables: "
                                            "~1100 ns remote request-grant round trip)",
                                            0,
                                            1e9};
};

struct SpineParams {
  int ports = 0;
  int buffer_packets = 0;      // per input and per output port
  sc_core::sc_time traversal;  // input to output through the spine
};

// Its auto keys must be derived first.
SpineParams read_spine_params(const SpineKeys& keys);

}  // namespace fabric
