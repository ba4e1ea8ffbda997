#pragma once
// What an RTL implementation of a multicast block was asked to do: the
// calls that reached it (commands that clock it, queries that only settle
// its combinational outputs) and the rising edges it was clocked. Zero for
// the C++ model, which has no clock of its own.
#include <cstdint>

namespace fabric {

struct RtlActivity {
  uint64_t commands = 0;
  uint64_t queries = 0;
  uint64_t edges = 0;
  RtlActivity& operator+=(const RtlActivity& o) {
    commands += o.commands;
    queries += o.queries;
    edges += o.edges;
    return *this;
  }
};

}  // namespace fabric
