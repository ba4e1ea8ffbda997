#pragma once
// A sender's packets from its host, one after the other: at a rate that may
// change over the run (a load schedule, a pattern in which it is silent),
// spaced by an ArrivalProcess (cbr, poisson, bursty). A gap that would cross
// a change of rate is drawn again from the change. No SystemC.
#include <cstdint>

#include "model/core/ids.h"
#include "traffic/arrival_process.h"

namespace fabric::traffic {

// What a sender offers over time.
class SenderLoad {
 public:
  virtual ~SenderLoad() = default;
  // This sender's payload rate at `t`, Gb/s (0: silent).
  virtual double gbps_at(Picos t) const = 0;
  // The first time after `t` at which its rate may change (kNever: none).
  virtual Picos next_change(Picos t) const = 0;
};

class PacketArrivals {
 public:
  PacketArrivals(const SenderLoad& load, Arrival arrival, uint64_t seed, uint32_t payload_bytes);
  // The next packet's creation time (kNever: no more).
  Picos next();

 private:
  const SenderLoad& load_;
  ArrivalProcess process_;
  double bits_;
  double t_ = 0;       // the last packet's time (with its fraction)
  bool first_ = true;  // the first packet after silence comes at a random phase
};

}  // namespace fabric::traffic
