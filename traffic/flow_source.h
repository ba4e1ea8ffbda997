#pragma once
// Lazy frame generator for one flow: tells when its next frame is created and
// hands frames out one at a time. Deterministic for a given seed; no SystemC,
// the CNA model drives it from its own process.
#include <cstdint>
#include <limits>
#include <random>

#include "model/core/ids.h"
#include "traffic/arrival_process.h"
#include "traffic/flow_spec.h"

namespace fabric::traffic {

constexpr Picos kNever = std::numeric_limits<Picos>::max();

struct GeneratedFrame {
  Picos created;  // the creation time the source scheduled (not the pop time)
  PortId dst;
  uint32_t bytes;
  uint64_t sequence;  // 0, 1, 2 ... per flow
  FlowId flow;
};

// Independent per-flow seed from the run seed, so adding a flow does not
// change the random streams of the others.
uint64_t flow_seed(uint64_t run_seed, FlowId flow);

class FlowSource {
 public:
  FlowSource(const FlowSpec& spec, uint64_t seed);

  const FlowSpec& spec() const { return spec_; }
  // Creation time of the next frame; kNever once past stop or max_frames (or rate 0).
  Picos next_time() const;
  // The offset of each on-interval's first frame from the interval's start
  // (0 unless the spec asks for a random phase and has more than one frame).
  Picos phase() const { return phase_; }
  bool finished() const { return next_time() == kNever; }
  uint64_t frames_created() const { return sequence_; }

  // Takes the next frame. now_or_later is the caller's current time and must be
  // >= next_time() (std::logic_error otherwise, or when finished). Draws the
  // destination then the size, and schedules the following frame
  // (bytes + 20) * 8 / rate later (cbr), or an exponential gap with that
  // mean later (poisson).
  GeneratedFrame pop(Picos now_or_later);

  // Backpressure: the CNA queue was full until t, and frames are not created
  // while it is full, so the next creation moves to t if it was earlier.
  void defer_to(Picos t);

 private:
  // Moves next_ into the current on-interval (at its start plus the phase),
  // or past the last one.
  void skip_off_time();

  FlowSpec spec_;
  std::vector<std::pair<Picos, Picos>> on_;  // the schedule, or [start, stop)
  size_t interval_ = 0;
  std::mt19937_64 rng_;     // destinations and sizes
  ArrivalProcess arrival_;  // phase and gaps: a stream of its own, so cbr and poisson flows draw the same frames
  Picos phase_ = 0;
  Picos next_ = 0;
  double carry_ps_ = 0;  // rounding remainder in [-0.5, 0.5]: keeps the long-run rate exact
  uint64_t sequence_ = 0;
};

}  // namespace fabric::traffic
